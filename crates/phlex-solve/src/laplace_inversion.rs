//! Numerical inversion of the Laplace transform: $f(t) = \mathcal L^{-1}\{F\}(t)$ from
//! evaluations of $F(s)$ at complex $s$ (thesis 004 §8.3.3: the Danilovskaya reference
//! solution (8.51) is inverted "using the de Hoog method \[dHKS82\]").
//!
//! * [`DeHoog`]: F. R. de Hoog, J. H. Knight, A. N. Stokes, *An improved method for
//!   numerical inversion of Laplace transforms*, SIAM J. Sci. Stat. Comput. 3 (1982)
//!   357–366. The Bromwich integral on $\operatorname{Re}s = \gamma$ is discretized by the
//!   trapezoidal rule (a Fourier series of period $2T$),
//!   $$f(t) \approx \frac{e^{\gamma t}}{T}\operatorname{Re}\sum_{k=0}^{2M}{}' F\!\Big(\gamma +
//!   \frac{ik\pi}{T}\Big) z^k,\qquad z = e^{i\pi t/T},$$
//!   and the power series in $z$ is accelerated by its diagonal Padé approximant, a
//!   continued fraction $d_0/(1 + d_1 z/(1 + d_2 z/(1 + \dots)))$ whose coefficients come
//!   from the quotient–difference (QD) algorithm, with the "improved remainder"
//!   $R_{2M}(z) = -h_{2M}\,[1 - (1 + d_{2M}z/h_{2M}^2)^{1/2}]$,
//!   $h_{2M} = \tfrac12[1 + (d_{2M-1} - d_{2M})z]$ (their eqs. (20)–(24)). The aliasing
//!   error of the Fourier series is $\approx e^{-2(\gamma - \alpha) T}$ = `tol`, so
//!   $\gamma = \alpha - \ln(\mathrm{tol})/(2T)$ with $\alpha$ the abscissa of convergence
//!   and $T$ = `scale`$\cdot t$ (the choices of Hollenbeck's `invlap` and of mpmath's
//!   `invertlaplace(method='dehoog')`). The Bromwich line makes the method valid for
//!   transforms with delays ($e^{-s\tau}$, wave fronts): the Danilovskaya solution has a
//!   front at $\hat t = \hat x$ where the Fourier series shows the Gibbs phenomenon, so
//!   values within a few $T/M$ of the front are inaccurate.
//! * [`FixedTalbot`]: J. Abate, P. P. Valkó, *Multi-precision Laplace transform
//!   inversion*, Int. J. Numer. Meth. Engng 60 (2004) 979–993, the fixed Talbot contour
//!   $s(\theta) = r\theta(\cot\theta + i)$, $r = 2M/(5t)$, $\theta_k = k\pi/M$:
//!   $$f(t) \approx \frac rM\Big[\tfrac12 F(r)e^{rt} + \sum_{k=1}^{M-1}\operatorname{Re}\big(
//!   e^{ts(\theta_k)}F(s(\theta_k))(1 + i\sigma(\theta_k))\big)\Big],\quad
//!   \sigma(\theta) = \theta + (\theta\cot\theta - 1)\cot\theta.$$
//!   The contour wraps the negative real axis, so $F$ must be analytic off it and all its
//!   singularities must lie inside the contour (it crosses the imaginary axis at
//!   $\pm iM\pi/(5t)$: poles $\pm i\omega$ need $\omega < M\pi/(5t)$); it **cannot** invert
//!   transforms with delays such as $e^{-s\tau}$, which grow on the contour. In double
//!   precision $M \approx 20$–$28$ is best (about 9 correct digits).
//!
//! Complex arithmetic uses [`faer::c64`] (= `num_complex::Complex<f64>`, already a faer
//! dependency). [`erfc`] is provided for the closed-form references of diffusion problems
//! ($\mathcal L^{-1}\{e^{-x\sqrt s}/s\} = \operatorname{erfc}(x/(2\sqrt t))$).
//!
//! ```
//! use phlex_solve::laplace_inversion::{DeHoog, erfc};
//! use faer::c64;
//! let dh = DeHoog::default();
//! // e^{-√s}/s ↦ erfc(1/(2√t))
//! let f = dh.invert(|s: c64| (-s.sqrt()).exp() / s, 0.5)?;
//! assert!((f - erfc(1.0 / (2.0 * 0.5f64.sqrt()))).abs() < 1e-9);
//! # Ok::<(), phlex_solve::SolveError>(())
//! ```
use crate::SolveError;
use faer::c64;

/// Parameters of the de Hoog–Knight–Stokes inversion (see the module docs).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeHoog {
    /// Number of Padé levels $M$: $2M + 1$ transform evaluations per time, `1..=200`.
    pub m: usize,
    /// Target aliasing error `tol` $\in (0, 1)$: $\gamma = \alpha - \ln(\mathrm{tol})/(2T)$.
    pub tol: f64,
    /// Half period $T$ = `scale`$\cdot t$ of the Fourier series, `scale` $> 1$ (the series
    /// must cover $t$: $T > t$; 2 is the customary value).
    pub scale: f64,
    /// Abscissa of convergence $\alpha$ (all singularities of $F$ have
    /// $\operatorname{Re}s \le \alpha$); 0 for bounded $f$.
    pub alpha: f64,
}

impl Default for DeHoog {
    /// $M = 32$, tol $= 10^{-12}$, $T = 2t$, $\alpha = 0$: about $10^{-10}$ relative on
    /// smooth transforms and $4\cdot 10^{-11}$ on the Danilovskaya solution at $\hat x = 1$
    /// away from the front (measured against mpmath at 30 digits).
    fn default() -> Self {
        Self {
            m: 32,
            tol: 1e-12,
            scale: 2.0,
            alpha: 0.0,
        }
    }
}

fn check_time(t: f64, method: &str) -> Result<(), SolveError> {
    if t.is_finite() && t > 0.0 {
        Ok(())
    } else {
        Err(SolveError::Parameter(format!(
            "{method} inverse Laplace transform: time t = {t} must be finite and > 0 (f(0) is the limit s F(s), s → ∞)"
        )))
    }
}

fn check_value(v: c64, s: c64, method: &str) -> Result<c64, SolveError> {
    if v.re.is_finite() && v.im.is_finite() {
        Ok(v)
    } else {
        Err(SolveError::Parameter(format!(
            "{method} inverse Laplace transform: F(s) is not finite at s = {} + {}i; F must be analytic for Re s > alpha (raise alpha past its singularities)",
            s.re, s.im
        )))
    }
}

impl DeHoog {
    /// Checks the parameters; the message names the one that failed.
    pub fn validate(&self) -> Result<(), SolveError> {
        if !(1..=200).contains(&self.m) {
            return Err(SolveError::Parameter(format!(
                "de Hoog: m = {} must be in 1..=200",
                self.m
            )));
        }
        if !(self.tol > 0.0 && self.tol < 1.0) {
            return Err(SolveError::Parameter(format!(
                "de Hoog: tol = {} must satisfy 0 < tol < 1",
                self.tol
            )));
        }
        if !(self.scale.is_finite() && self.scale > 1.0) {
            return Err(SolveError::Parameter(format!(
                "de Hoog: scale = {} must be finite and > 1 (T = scale t must exceed t)",
                self.scale
            )));
        }
        if !self.alpha.is_finite() {
            return Err(SolveError::Parameter(format!(
                "de Hoog: alpha = {} must be finite",
                self.alpha
            )));
        }
        Ok(())
    }

    /// $f(t)$ for the transform `F`, $t > 0$.
    ///
    /// Errors ([`SolveError::Parameter`]): invalid parameters or time, a non-finite
    /// $F(s)$, or a breakdown of the QD table (a zero pivot, e.g. for an $F$ whose
    /// samples vanish identically).
    pub fn invert<F: Fn(c64) -> c64>(&self, F: F, t: f64) -> Result<f64, SolveError> {
        self.validate()?;
        check_time(t, "de Hoog")?;
        let m = self.m;
        let n = 2 * m + 1;
        let T = self.scale * t;
        let gamma = self.alpha - self.tol.ln() / (2.0 * T);
        let mut a = Vec::with_capacity(n);
        for k in 0..n {
            let s = c64::new(gamma, std::f64::consts::PI * k as f64 / T);
            a.push(check_value(F(s), s, "de Hoog")?);
        }
        a[0] *= 0.5;
        let v = pade_series(&a, m, c64::from_polar(1.0, std::f64::consts::PI * t / T))
            .ok_or_else(|| {
                SolveError::Parameter(format!(
                    "de Hoog: the quotient-difference table broke down (zero pivot) at t = {t}; F may vanish identically or m = {} is too large",
                    m
                ))
            })?;
        let f = (gamma * t).exp() / T * v.re;
        if f.is_finite() {
            Ok(f)
        } else {
            Err(SolveError::NonFinite { t, index: 0 })
        }
    }

    /// $f(t_i)$ for every time in `ts` (each inverted with its own $T$ = `scale`$\,t_i$).
    pub fn invert_many<F: Fn(c64) -> c64>(&self, F: F, ts: &[f64]) -> Result<Vec<f64>, SolveError> {
        ts.iter().map(|&t| self.invert(&F, t)).collect()
    }
}

/// Value at `z` of the continued-fraction (diagonal Padé) acceleration of
/// $\sum_{k=0}^{2M} a_k z^k$ (de Hoog et al. 1982, QD algorithm and improved remainder);
/// `None` on a zero pivot.
fn pade_series(a: &[c64], m: usize, z: c64) -> Option<c64> {
    let n = 2 * m + 1;
    let zero = c64::new(0.0, 0.0);
    let one = c64::new(1.0, 0.0);
    // QD table: q[r][i] (r = 1..=m), e[r][i] (r = 0..=m); e_0 = 0, q_1^{(i)} = a_{i+1}/a_i.
    let mut q = vec![vec![zero; n]; m + 1];
    let mut e = vec![vec![zero; n]; m + 1];
    for i in 0..n - 1 {
        if a[i] == zero {
            return None;
        }
        q[1][i] = a[i + 1] / a[i];
    }
    for r in 1..=m {
        // e_r^{(i)} = q_r^{(i+1)} - q_r^{(i)} + e_{r-1}^{(i+1)}, i = 0..=2M-2r
        for i in 0..=(2 * m - 2 * r) {
            e[r][i] = q[r][i + 1] - q[r][i] + e[r - 1][i + 1];
        }
        if r < m {
            // q_{r+1}^{(i)} = q_r^{(i+1)} e_r^{(i+1)} / e_r^{(i)}, i = 0..=2M-2r-1
            for i in 0..=(2 * m - 2 * r - 1) {
                if e[r][i] == zero {
                    return None;
                }
                q[r + 1][i] = q[r][i + 1] * e[r][i + 1] / e[r][i];
            }
        }
    }
    // Continued fraction coefficients.
    let mut d = vec![zero; n];
    d[0] = a[0];
    for r in 1..=m {
        d[2 * r - 1] = -q[r][0];
        d[2 * r] = -e[r][0];
    }
    // Recurrences A_k = A_{k-1} + d_k z A_{k-2} (A_{-1} = 0, A_0 = d_0, B_{-1} = B_0 = 1),
    // kept as (A_{k-2}, A_{k-1}).
    let (mut a2, mut a1) = (zero, d[0]);
    let (mut b2, mut b1) = (one, one);
    for dk in d.iter().take(2 * m).skip(1) {
        let an = a1 + dk * z * a2;
        let bn = b1 + dk * z * b2;
        (a2, a1) = (a1, an);
        (b2, b1) = (b1, bn);
    }
    // Improved remainder replaces d_{2M} z in the last step.
    let h = 0.5 * (one + (d[2 * m - 1] - d[2 * m]) * z);
    let rem = -h * (one - (one + d[2 * m] * z / (h * h)).sqrt());
    let an = a1 + rem * a2;
    let bn = b1 + rem * b2;
    let v = an / bn;
    (v.re.is_finite() && v.im.is_finite()).then_some(v)
}

/// The fixed Talbot method of Abate & Valkó (2004) with $M$ nodes (see the module docs
/// for its domain of validity: no delays, singularities inside the contour).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FixedTalbot {
    /// Number of contour nodes $M$, `2..=100`; 20–28 in double precision.
    pub m: usize,
}

impl Default for FixedTalbot {
    /// $M = 24$.
    fn default() -> Self {
        Self { m: 24 }
    }
}

impl FixedTalbot {
    /// $f(t)$ for the transform `F`, $t > 0$.
    pub fn invert<F: Fn(c64) -> c64>(&self, F: F, t: f64) -> Result<f64, SolveError> {
        if !(2..=100).contains(&self.m) {
            return Err(SolveError::Parameter(format!(
                "fixed Talbot: m = {} must be in 2..=100",
                self.m
            )));
        }
        check_time(t, "fixed Talbot")?;
        let m = self.m as f64;
        let r = 2.0 * m / (5.0 * t);
        let s0 = c64::new(r, 0.0);
        let mut acc = 0.5 * check_value(F(s0), s0, "fixed Talbot")?.re * (r * t).exp();
        for k in 1..self.m {
            let th = k as f64 * std::f64::consts::PI / m;
            let cot = th.cos() / th.sin();
            let s = c64::new(r * th * cot, r * th);
            let sigma = th + (th * cot - 1.0) * cot;
            let fs = check_value(F(s), s, "fixed Talbot")?;
            acc += ((t * s).exp() * fs * c64::new(1.0, sigma)).re;
        }
        let f = r / m * acc;
        if f.is_finite() {
            Ok(f)
        } else {
            Err(SolveError::NonFinite { t, index: 0 })
        }
    }
}

/// Complementary error function $\operatorname{erfc}(x) = \frac{2}{\sqrt\pi}
/// \int_x^\infty e^{-u^2}du$, relative accuracy about $10^{-14}$.
///
/// $|x| < 2$: $\operatorname{erfc} = 1 - \operatorname{erf}$ with the positive series
/// $\operatorname{erf}(x) = \frac{2}{\sqrt\pi}e^{-x^2}\sum_n \frac{2^n x^{2n+1}}{1\cdot 3
/// \cdots (2n+1)}$ (Abramowitz–Stegun 7.1.6); $x \ge 2$: the continued fraction
/// $\operatorname{erfc}(x) = \frac{e^{-x^2}}{\sqrt\pi}\,\cfrac{1}{x + \cfrac{1/2}{x +
/// \cfrac{1}{x + \cfrac{3/2}{x + \dots}}}}$ (A–S 7.1.14) by the modified Lentz method;
/// $x \le -2$: $2 - \operatorname{erfc}(-x)$.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x <= -2.0 {
        return 2.0 - erfc(-x);
    }
    if x < 2.0 {
        let x2 = x * x;
        let mut term = x;
        let mut sum = x;
        let mut n = 0.0;
        while term.abs() > 1e-17 * sum.abs() {
            n += 1.0;
            term *= 2.0 * x2 / (2.0 * n + 1.0);
            sum += term;
        }
        let erf = 2.0 / std::f64::consts::PI.sqrt() * (-x2).exp() * sum;
        return 1.0 - erf;
    }
    // Lentz: K = x + a_1/(x + a_2/(x + ...)), a_k = k/2.
    let tiny = 1e-300;
    let mut f = x;
    let mut c = x;
    let mut d = 0.0;
    for k in 1..500 {
        let ak = 0.5 * k as f64;
        d = x + ak * d;
        if d.abs() < tiny {
            d = tiny;
        }
        c = x + ak / c;
        if c.abs() < tiny {
            c = tiny;
        }
        d = 1.0 / d;
        let delta = c * d;
        f *= delta;
        if (delta - 1.0).abs() < 1e-16 {
            break;
        }
    }
    (-x * x).exp() / (std::f64::consts::PI.sqrt() * f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// erfc against mpmath (25 digits).
    #[test]
    #[allow(clippy::excessive_precision)]
    fn erfc_values() {
        let refs = [
            (0.1, 0.8875370839817151),
            (0.5, 0.47950012218695346),
            (1.0, 0.15729920705028513),
            (1.5, 0.033894853524689273),
            (2.0, 0.0046777349810472658),
            (2.5, 0.00040695201744495894),
            (3.0, 2.2090496998585441e-5),
            (5.0, 1.5374597944280349e-12),
            (10.0, 2.0884875837625448e-45),
        ];
        for (x, r) in refs {
            let v = erfc(x);
            assert!((v - r).abs() <= 1e-14 * r, "erfc({x}) = {v} vs {r}");
            assert!((erfc(-x) - (2.0 - r)).abs() < 1e-15);
        }
        assert_eq!(erfc(0.0), 1.0);
    }

    #[test]
    fn bad_arguments_are_typed_errors() {
        let dh = DeHoog::default();
        assert!(dh.invert(|s: c64| 1.0 / s, 0.0).is_err());
        assert!(dh.invert(|s: c64| 1.0 / s, f64::NAN).is_err());
        let bad = DeHoog { m: 0, ..dh };
        assert!(bad.invert(|s: c64| 1.0 / s, 1.0).is_err());
        let bad = DeHoog { tol: 2.0, ..dh };
        assert!(bad.validate().is_err());
        let bad = DeHoog { scale: 0.5, ..dh };
        assert!(bad.validate().is_err());
        // a pole on the Bromwich line gives a non-finite sample
        let e = dh
            .invert(
                |s: c64| 1.0 / (s - c64::new(-(1e-12f64).ln() / 4.0, 0.0)),
                1.0,
            )
            .unwrap_err();
        assert!(format!("{e}").contains("not finite"), "{e}");
        // the zero transform breaks the QD table
        assert!(dh.invert(|_s: c64| c64::new(0.0, 0.0), 1.0).is_err());
        assert!(FixedTalbot { m: 1 }.invert(|s: c64| 1.0 / s, 1.0).is_err());
    }
}
