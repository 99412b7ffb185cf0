//! Body keys the planar and spatial multibody formats read alike, with their errors at the
//! line of the key.
use toml::Spanned;

use super::text::ModelText;
use crate::error::ModelError;

impl<F> ModelText<F> {
    /// The `mass_operator` of the beam `bodies.name` (`v`): `"constant"` (false: the
    /// constant mass operator of paper 000 §4.3) or `"full"` (true: deformation-dependent
    /// inertia, which `full` describes in the error message); `None` if not given.
    pub(crate) fn full_inertia(
        &self,
        name: &str,
        v: &Option<Spanned<String>>,
        full: &str,
    ) -> Result<Option<bool>, ModelError> {
        let Some(m) = v else {
            return Ok(None);
        };
        match m.get_ref().as_str() {
            "constant" => Ok(Some(false)),
            "full" => Ok(Some(true)),
            other => Err(self.err(
                m.span(),
                format!("bodies.{name}.mass_operator = '{other}': use \"constant\" (paper 000 §4.3) or \"full\" ({full})"),
            )),
        }
    }
}
