//! Time-dependent inputs $u(t)$: closed-form expressions, tables, steps, ramps, impulses,
//! and their model-file form [`SignalSpec`] (one syntax for every model kind).
//!
//! Every signal reports its **breakpoints** (switching times, table knots, pulse edges);
//! integrators stop exactly on them so that a discontinuity never falls inside a step.
//! Expressions are parsed by the `exmex` crate; the only variable is `t`, and `pi` is
//! accepted as well as `PI`.
use std::fmt;
use std::sync::Arc;

use exmex::prelude::*;

/// Error while building a signal.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SignalError {
    /// The expression does not parse.
    #[error("cannot parse expression '{expr}': {reason}")]
    Parse {
        /// The expression text.
        expr: String,
        /// Parser message.
        reason: String,
    },
    /// The expression uses a variable other than `t`.
    #[error("expression '{expr}' uses variable '{var}'; only 't' (time) is allowed")]
    UnknownVariable {
        /// The expression text.
        expr: String,
        /// The offending variable.
        var: String,
    },
    /// A table is malformed.
    #[error("table signal: {0}")]
    Table(String),
    /// A parameter is out of range.
    #[error("signal parameter: {0}")]
    Parameter(String),
}

/// A scalar function of time.
#[derive(Clone)]
pub enum Signal {
    /// A constant value.
    Constant(f64),
    /// A closed-form expression in `t`.
    Expr {
        /// Source text.
        text: String,
        /// Parsed expression.
        expr: Arc<FlatEx<f64>>,
        /// True if the expression does not use `t` (then `expr.eval(&[])`).
        constant: bool,
    },
    /// Piecewise-linear interpolation of `(t_k, v_k)`, constant outside.
    Table {
        /// Knots (strictly increasing).
        t: Vec<f64>,
        /// Values at the knots.
        v: Vec<f64>,
    },
    /// `before` for `t < t0`, `after` for `t ≥ t0`.
    Step {
        /// Switching time.
        t0: f64,
        /// Value before the switch.
        before: f64,
        /// Value after the switch.
        after: f64,
    },
    /// Linear ramp from `v0` at `t0` to `v1` at `t1`, constant outside.
    Ramp {
        /// Start time.
        t0: f64,
        /// End time.
        t1: f64,
        /// Start value.
        v0: f64,
        /// End value.
        v1: f64,
    },
    /// Rectangular pulse of given `area` on `[t0, t0 + width)` (an approximate impulse).
    Impulse {
        /// Start time.
        t0: f64,
        /// Duration (> 0).
        width: f64,
        /// Integral of the pulse.
        area: f64,
    },
    /// Sum of signals.
    Sum(Vec<Signal>),
    /// Product of signals (e.g. a spatial amplitude times a time law).
    Product(Vec<Signal>),
    /// A Rust closure with its breakpoints.
    Fn {
        /// The function.
        f: Arc<dyn Fn(f64) -> f64 + Send + Sync>,
        /// Its switching times.
        breakpoints: Vec<f64>,
    },
}

impl fmt::Debug for Signal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Signal::Constant(c) => write!(f, "Constant({c})"),
            Signal::Expr { text, .. } => write!(f, "Expr({text:?})"),
            Signal::Table { t, .. } => write!(f, "Table({} knots)", t.len()),
            Signal::Step { t0, before, after } => write!(f, "Step({t0}, {before} -> {after})"),
            Signal::Ramp { t0, t1, v0, v1 } => write!(f, "Ramp({t0}..{t1}, {v0} -> {v1})"),
            Signal::Impulse { t0, width, area } => write!(f, "Impulse({t0}, {width}, {area})"),
            Signal::Sum(s) => write!(f, "Sum({s:?})"),
            Signal::Product(s) => write!(f, "Product({s:?})"),
            Signal::Fn { .. } => write!(f, "Fn"),
        }
    }
}

/// Prepares an expression for `exmex`: the identifier `pi` becomes `PI`, and numeric
/// literals in scientific notation (`1e6`, `2.5E-3`), which `exmex` does not read, are
/// written out in plain decimal form (the shortest that round-trips, so the value is
/// unchanged). A unary minus gets the usual mathematical precedence (below `^`, so
/// `-x^2 = -(x^2)` as in MATLAB, Python and every textbook; `exmex` alone binds it tighter,
/// giving `(-x)^2`): at the start, after `(`, `,` or `+` it is written `0-`, after `-` or
/// `*` as `(0-1)*`, after `/` as `(0-1)/`; after `^` it is left as is (`2^-t`).
pub fn normalize_expression(text: &str) -> String {
    let b = text.as_bytes();
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut out = String::with_capacity(text.len() + 8);
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && ident(b[i]) {
                i += 1;
            }
            let w = &text[s..i];
            out.push_str(if w == "pi" { "PI" } else { w });
        } else if c.is_ascii_digit() || (c == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_digit())
        {
            let s = i;
            while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
                i += 1;
            }
            if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
                let mut j = i + 1;
                if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
                    j += 1;
                }
                let digits = j;
                while j < b.len() && b[j].is_ascii_digit() {
                    j += 1;
                }
                if j > digits && (j == b.len() || !ident(b[j])) {
                    if let Ok(v) = text[s..j].parse::<f64>() {
                        out.push_str(&format!("{v}"));
                        i = j;
                        continue;
                    }
                }
            }
            out.push_str(&text[s..i]);
        } else if c == b'-' {
            match out.trim_end().chars().last() {
                None | Some('(') | Some(',') | Some('+') => out.push_str("0-"),
                Some('-') | Some('*') => out.push_str("(0-1)*"),
                Some('/') => out.push_str("(0-1)/"),
                _ => out.push('-'),
            }
            i += 1;
        } else {
            let ch = text[i..].chars().next().unwrap_or(' ');
            out.push(ch);
            i += ch.len_utf8();
        }
    }
    out
}

impl Signal {
    /// Parses a closed-form expression in `t`, e.g. `"0.5*sin(2*pi*t)"`.
    pub fn expr(text: &str) -> Result<Self, SignalError> {
        let src = normalize_expression(text);
        let expr = exmex::parse::<f64>(&src).map_err(|e| SignalError::Parse {
            expr: text.into(),
            reason: e.to_string(),
        })?;
        let vars: Vec<String> = expr.var_names().iter().map(|s| s.to_string()).collect();
        if let Some(v) = vars.iter().find(|v| v.as_str() != "t") {
            return Err(SignalError::UnknownVariable {
                expr: text.into(),
                var: v.clone(),
            });
        }
        Ok(Signal::Expr {
            text: text.into(),
            constant: vars.is_empty(),
            expr: Arc::new(expr),
        })
    }

    /// A table signal; knots must be strictly increasing and finite.
    pub fn table(t: Vec<f64>, v: Vec<f64>) -> Result<Self, SignalError> {
        if t.is_empty() || t.len() != v.len() {
            return Err(SignalError::Table(format!(
                "need as many times as values and at least one (got {} times, {} values)",
                t.len(),
                v.len()
            )));
        }
        if let Some(k) = (1..t.len()).find(|&k| !(t[k] > t[k - 1])) {
            return Err(SignalError::Table(format!(
                "times must be strictly increasing: t[{}] = {} is not > t[{}] = {}",
                k,
                t[k],
                k - 1,
                t[k - 1]
            )));
        }
        if t.iter().chain(v.iter()).any(|x| !x.is_finite()) {
            return Err(SignalError::Table("times and values must be finite".into()));
        }
        Ok(Signal::Table { t, v })
    }

    /// A rectangular impulse; `width` must be positive.
    pub fn impulse(t0: f64, width: f64, area: f64) -> Result<Self, SignalError> {
        if !(width > 0.0) {
            return Err(SignalError::Parameter(format!(
                "impulse width must be > 0, got {width}"
            )));
        }
        Ok(Signal::Impulse { t0, width, area })
    }

    /// A ramp; requires `t1 > t0`.
    pub fn ramp(t0: f64, t1: f64, v0: f64, v1: f64) -> Result<Self, SignalError> {
        if !(t1 > t0) {
            return Err(SignalError::Parameter(format!(
                "ramp needs t1 > t0, got t0 = {t0}, t1 = {t1}"
            )));
        }
        Ok(Signal::Ramp { t0, t1, v0, v1 })
    }

    /// A closure signal.
    pub fn from_fn(f: impl Fn(f64) -> f64 + Send + Sync + 'static) -> Self {
        Signal::Fn {
            f: Arc::new(f),
            breakpoints: Vec::new(),
        }
    }

    /// Value at time `t` (right-continuous at switching times).
    pub fn eval(&self, t: f64) -> f64 {
        match self {
            Signal::Constant(c) => *c,
            Signal::Expr { expr, constant, .. } => {
                if *constant {
                    expr.eval(&[]).unwrap_or(f64::NAN)
                } else {
                    expr.eval(&[t]).unwrap_or(f64::NAN)
                }
            }
            Signal::Table { t: ts, v } => {
                if t <= ts[0] {
                    return v[0];
                }
                if t >= ts[ts.len() - 1] {
                    return v[v.len() - 1];
                }
                let k = ts.partition_point(|&x| x <= t);
                let (a, b) = (ts[k - 1], ts[k]);
                v[k - 1] + (v[k] - v[k - 1]) * (t - a) / (b - a)
            }
            Signal::Step { t0, before, after } => {
                if t < *t0 {
                    *before
                } else {
                    *after
                }
            }
            Signal::Ramp { t0, t1, v0, v1 } => {
                if t <= *t0 {
                    *v0
                } else if t >= *t1 {
                    *v1
                } else {
                    v0 + (v1 - v0) * (t - t0) / (t1 - t0)
                }
            }
            Signal::Impulse { t0, width, area } => {
                if t >= *t0 && t < t0 + width {
                    area / width
                } else {
                    0.0
                }
            }
            Signal::Sum(s) => s.iter().map(|x| x.eval(t)).sum(),
            Signal::Product(s) => s.iter().map(|x| x.eval(t)).product(),
            Signal::Fn { f, .. } => f(t),
        }
    }

    /// Switching times of the signal (sorted, deduplicated).
    pub fn breakpoints(&self) -> Vec<f64> {
        let mut b = match self {
            Signal::Constant(_) | Signal::Expr { .. } => vec![],
            Signal::Table { t, .. } => t.clone(),
            Signal::Step { t0, .. } => vec![*t0],
            Signal::Ramp { t0, t1, .. } => vec![*t0, *t1],
            Signal::Impulse { t0, width, .. } => vec![*t0, t0 + width],
            Signal::Sum(s) | Signal::Product(s) => s.iter().flat_map(|x| x.breakpoints()).collect(),
            Signal::Fn { breakpoints, .. } => breakpoints.clone(),
        };
        b.sort_by(|a, c| a.total_cmp(c));
        b.dedup();
        b
    }
}

/// The input vector $u(t)$ of a system: one [`Signal`] per input component.
#[derive(Debug, Clone, Default)]
pub struct InputFn {
    signals: Vec<Signal>,
}

impl InputFn {
    /// All-zero input of dimension `m`.
    pub fn zeros(m: usize) -> Self {
        Self {
            signals: vec![Signal::Constant(0.0); m],
        }
    }
    /// From a list of component signals.
    pub fn new(signals: Vec<Signal>) -> Self {
        Self { signals }
    }
    /// Dimension `m`.
    pub fn dim(&self) -> usize {
        self.signals.len()
    }
    /// Sets component `k`.
    ///
    /// # Panics
    /// If `k >= dim()`.
    #[track_caller]
    pub fn set(&mut self, k: usize, s: Signal) {
        self.signals[k] = s;
    }
    /// Component signals.
    pub fn signals(&self) -> &[Signal] {
        &self.signals
    }
    /// Evaluates $u(t)$ into `u`.
    #[inline]
    pub fn eval_into(&self, t: f64, u: &mut [f64]) {
        for (ui, s) in u.iter_mut().zip(&self.signals) {
            *ui = s.eval(t);
        }
    }
    /// Evaluates $u(t)$.
    pub fn eval(&self, t: f64) -> Vec<f64> {
        self.signals.iter().map(|s| s.eval(t)).collect()
    }
    /// True if every component is identically zero.
    pub fn is_zero(&self) -> bool {
        self.signals
            .iter()
            .all(|s| matches!(s, Signal::Constant(c) if *c == 0.0))
    }
    /// All switching times (sorted, deduplicated).
    pub fn breakpoints(&self) -> Vec<f64> {
        let mut b: Vec<f64> = self.signals.iter().flat_map(|s| s.breakpoints()).collect();
        b.sort_by(|a, c| a.total_cmp(c));
        b.dedup();
        b
    }
}

/// The model-file form of a [`Signal`] (the one signal syntax of every model kind): a
/// number, an expression in `t`, or a typed table `{ type = "step" | "ramp" | "impulse" |
/// "table", … }`; [`SignalSpec::to_signal`] builds the signal.
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(untagged)]
pub enum SignalSpec {
    /// Constant.
    Number(f64),
    /// Expression in t.
    Expr(String),
    /// Step, ramp, impulse or table.
    Shaped(ShapedSignal),
}

/// Typed signals of [`SignalSpec::Shaped`].
#[derive(Debug, Clone, serde::Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ShapedSignal {
    /// `before` until `t0`, then `after`.
    Step {
        /// Switching time.
        t0: f64,
        /// Value before.
        #[serde(default)]
        before: f64,
        /// Value after.
        after: f64,
    },
    /// Linear ramp.
    Ramp {
        /// Start.
        t0: f64,
        /// End.
        t1: f64,
        /// Start value.
        #[serde(default)]
        v0: f64,
        /// End value.
        v1: f64,
    },
    /// Rectangular impulse of given area.
    Impulse {
        /// Start.
        t0: f64,
        /// Width.
        width: f64,
        /// Area.
        area: f64,
    },
    /// Piecewise-linear table.
    Table {
        /// Times.
        t: Vec<f64>,
        /// Values.
        values: Vec<f64>,
    },
}

impl SignalSpec {
    /// The signal (errors: an expression that does not parse, a malformed table, a ramp
    /// with `t1 <= t0`, an impulse of width <= 0).
    pub fn to_signal(&self) -> Result<Signal, SignalError> {
        match self {
            SignalSpec::Number(v) => Ok(Signal::Constant(*v)),
            SignalSpec::Expr(s) => Signal::expr(s),
            SignalSpec::Shaped(s) => match s {
                ShapedSignal::Step { t0, before, after } => Ok(Signal::Step {
                    t0: *t0,
                    before: *before,
                    after: *after,
                }),
                ShapedSignal::Ramp { t0, t1, v0, v1 } => Signal::ramp(*t0, *t1, *v0, *v1),
                ShapedSignal::Impulse { t0, width, area } => Signal::impulse(*t0, *width, *area),
                ShapedSignal::Table { t, values } => Signal::table(t.clone(), values.clone()),
            },
        }
    }
}

#[cfg(test)]
mod tests {

    /// Scientific literals are expanded (value unchanged), `pi` is the constant, and
    /// identifiers containing digits or an `e` are left alone.
    #[test]
    fn normalized_expressions() {
        assert_eq!(
            normalize_expression("1e6*sin(2.5E-3*t) + pi + x1e5 + 3e"),
            "1000000*sin(0.0025*t) + PI + x1e5 + 3e"
        );
        let s = Signal::expr("1e6 * sin(2*pi*t) + 2.5e-1").unwrap();
        let v = s.eval(0.25);
        assert!((v - (1e6 + 0.25)).abs() < 1e-9, "{v}");
        assert_eq!(normalize_expression("ρ·2e1"), "ρ·20");
    }

    /// A unary minus binds below `^` (textbook convention), everywhere it can occur.
    #[test]
    fn unary_minus_precedence() {
        let at = |e: &str, t: f64| Signal::expr(e).unwrap().eval(t);
        let x: f64 = 3.0;
        for (e, want) in [
            ("-t^2", -x * x),
            ("exp(-(t-1)^2)", (-(x - 1.0).powi(2)).exp()),
            ("2 - -t^2", 2.0 + x * x),
            ("2*-t^2", -2.0 * x * x),
            ("18/-t^2", -2.0),
            ("18/-t^2*2", -4.0),
            ("2^-t", 2f64.powf(-x)),
            ("max(-t, -1)", -1.0),
            ("1 + -t", 1.0 - x),
            ("(-t)^2", x * x),
            ("-1e-3*t", -3e-3),
            ("t-1", x - 1.0),
        ] {
            let v = at(e, x);
            assert!(
                (v - want).abs() < 1e-12 * want.abs().max(1.0),
                "{e}: {v} vs {want}"
            );
        }
    }
    use super::*;

    #[test]
    fn expressions_tables_and_switches() {
        let s = Signal::expr("2*sin(pi*t) + 1").unwrap();
        assert!((s.eval(0.5) - 3.0).abs() < 1e-14);
        assert!(Signal::expr("sin(x)").is_err());
        assert!(Signal::expr("sin(").is_err());
        let tab = Signal::table(vec![0.0, 1.0, 3.0], vec![0.0, 2.0, 0.0]).unwrap();
        assert_eq!(tab.eval(0.5), 1.0);
        assert_eq!(tab.eval(2.0), 1.0);
        assert_eq!(tab.eval(9.0), 0.0);
        assert!(Signal::table(vec![0.0, 0.0], vec![1.0, 2.0]).is_err());
        let st = Signal::Step {
            t0: 1.0,
            before: 0.0,
            after: 5.0,
        };
        assert_eq!(st.eval(1.0), 5.0);
        assert_eq!(st.eval(0.999), 0.0);
        let imp = Signal::impulse(0.1, 0.01, 2.0).unwrap();
        assert!((imp.eval(0.105) - 200.0).abs() < 1e-12);
        let sum = Signal::Sum(vec![st, imp, Signal::ramp(0.0, 2.0, 0.0, 1.0).unwrap()]);
        assert_eq!(sum.breakpoints(), vec![0.0, 0.1, 0.11, 1.0, 2.0]);
    }
}
