//! `[[input]]` of the continuum model files: each named port gets its signal on every
//! component ([`port_inputs`]).
use phlex_core::LinearPhSystem;
use phlex_solve::signal::InputFn;

use crate::error::{error_at, ModelError};
use crate::spec::{signal, PortInput};

/// Input signals of `[[input]]` entries: each named port gets the signal on all its
/// components (a value uniform over the port's trace basis).
pub fn port_inputs(
    file: &str,
    text: &str,
    sys: &LinearPhSystem,
    inputs: &[PortInput],
    hint: &str,
) -> Result<InputFn, ModelError> {
    let mut input = InputFn::zeros(sys.n_inputs());
    for inp in inputs {
        let port = inp.port.get_ref();
        let range = sys.ports.range(port).map_err(|_| {
            error_at(
                file,
                text,
                inp.port.span(),
                format!(
                    "input: unknown port '{port}' (ports: {}; {hint})",
                    if sys.ports.names().is_empty() {
                        "none".to_string()
                    } else {
                        sys.ports.names().join(", ")
                    }
                ),
            )
        })?;
        let s = signal(&inp.value)
            .map_err(|m| error_at(file, text, inp.port.span(), format!("input '{port}': {m}")))?;
        for k in range {
            input.set(k, s.clone());
        }
    }
    Ok(input)
}
