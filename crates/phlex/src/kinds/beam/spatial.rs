//! Closed-form functions of the coordinate `x` (initial fields, load profiles), parsed by
//! the `exmex` crate; `pi` is accepted as well as `PI`.
use std::sync::Arc;

use exmex::prelude::*;

/// A parsed function `f(x)`.
#[derive(Clone)]
pub struct SpatialFn {
    text: String,
    expr: Arc<FlatEx<f64>>,
    uses_x: bool,
}

impl std::fmt::Debug for SpatialFn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SpatialFn({:?})", self.text)
    }
}

impl SpatialFn {
    /// Parses `text`; the only allowed variable is `x`.
    pub fn parse(text: &str) -> Result<Self, String> {
        let src = phlex_solve::signal::normalize_expression(text);
        let expr = exmex::parse::<f64>(&src).map_err(|e| format!("cannot parse '{text}': {e}"))?;
        let vars: Vec<String> = expr.var_names().iter().map(|s| s.to_string()).collect();
        if let Some(v) = vars.iter().find(|v| v.as_str() != "x") {
            return Err(format!(
                "'{text}' uses variable '{v}'; only 'x' (position) is allowed"
            ));
        }
        Ok(Self {
            text: text.into(),
            uses_x: !vars.is_empty(),
            expr: Arc::new(expr),
        })
    }
    /// Evaluates `f(x)`.
    pub fn eval(&self, x: f64) -> f64 {
        let r = if self.uses_x {
            self.expr.eval(&[x])
        } else {
            self.expr.eval(&[])
        };
        r.unwrap_or(f64::NAN)
    }
    /// Source text.
    pub fn text(&self) -> &str {
        &self.text
    }
}

/// Replaces the identifier `word` (not inside a longer identifier) by `by`.
pub fn replace_word(text: &str, word: &str, by: &str) -> String {
    let b = text.as_bytes();
    let w = word.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(w)
            && (i == 0 || !ident(b[i - 1]))
            && (i + w.len() == b.len() || !ident(b[i + w.len()]))
        {
            out.push_str(by);
            i += w.len();
        } else {
            out.push(b[i] as char);
            i += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parses_x_and_rejects_t() {
        let f = SpatialFn::parse("sin(pi*x)").unwrap();
        assert!((f.eval(0.5) - 1.0).abs() < 1e-15);
        assert_eq!(SpatialFn::parse("3").unwrap().eval(7.0), 3.0);
        assert!(SpatialFn::parse("sin(t)").is_err());
    }
}
