//! Field expressions of the continuum model files: scalar functions of the position
//! (`x`, `y`, `z`; in 2D also `r`, `theta`) parsed by `exmex` ([`FieldFn`]).
use std::sync::Arc;

use exmex::prelude::*;

/// A scalar function of the position (`x`, `y` and, in 3D, `z`; in 2D also the polar
/// coordinates `r` = √(x² + y²) and `theta` = atan2(y, x)), parsed by `exmex`.
#[derive(Clone)]
pub struct FieldFn {
    expr: Arc<FlatEx<f64>>,
    /// Position of each expression variable in the point.
    slots: Vec<usize>,
}

impl FieldFn {
    /// Parses `text`; `dim` (2 or 3) says which of `x`, `y`, `z` (and in 2D `r`, `theta`)
    /// are allowed.
    pub fn parse(text: &str, dim: usize) -> Result<Self, String> {
        let src = phlex_solve::signal::normalize_expression(text);
        let expr = exmex::parse::<f64>(&src).map_err(|e| format!("cannot parse '{text}': {e}"))?;
        let allowed: &[&str] = if dim == 2 {
            &["x", "y", "", "r", "theta"]
        } else {
            &["x", "y", "z"]
        };
        let mut slots = Vec::new();
        for v in expr.var_names() {
            match allowed.iter().position(|n| !n.is_empty() && n == v) {
                Some(k) => slots.push(k),
                None => {
                    let names: Vec<&str> =
                        allowed.iter().copied().filter(|n| !n.is_empty()).collect();
                    return Err(format!(
                        "'{text}' uses variable '{v}'; only {} are allowed",
                        names.join(", ")
                    ));
                }
            }
        }
        Ok(Self {
            expr: Arc::new(expr),
            slots,
        })
    }
    /// Value at a point of the plane.
    pub fn eval2(&self, p: [f64; 2]) -> f64 {
        self.eval3([p[0], p[1], 0.0])
    }
    /// Value at a point of space (NaN if the expression cannot be evaluated).
    pub fn eval3(&self, p: [f64; 3]) -> f64 {
        let all = [p[0], p[1], p[2], p[0].hypot(p[1]), p[1].atan2(p[0])];
        let args: Vec<f64> = self.slots.iter().map(|&s| all[s]).collect();
        self.expr.eval(&args).unwrap_or(f64::NAN)
    }
}
