//! The mechanical oscillator (seed 001 Fig. 5, eq. (5)) and the damped oscillator
//! (Fig. 6, eq. (8)) as patterns and filled systems.
//!
//! Fig. 5: junction `q` = {pe.q, pkc.q}, junction `p` = {pkc.p, ke.p, outer port p}.
//! Fig. 6: junction `p` = {osc.p, mf.p}, junction `s` = {mf.s, env.s}, isolated.
use crate::error::EphsError;
use crate::language::interface::{Interface, PortKind};
use crate::language::pattern::Pattern;
use crate::language::quantity::Quantity;
use crate::language::system::{Composite, System};
use crate::library::mechanics::{environment, hookean_spring, linear_friction, pkc, point_mass};

/// The pattern of Fig. 5 (boxes pe, ke, pkc; outer port p).
pub fn oscillator_pattern() -> Result<Pattern, EphsError> {
    let mut p = Pattern::new("osc");
    p.add_junction("q", Quantity::displacement())?;
    p.add_junction("p", Quantity::momentum())?;
    p.expose("p", "p", PortKind::Power)?;
    p.add_box(
        "pe",
        Interface::new().power("q", Quantity::displacement())?,
        &[("q", "q")],
    )?;
    p.add_box(
        "ke",
        Interface::new().power("p", Quantity::momentum())?,
        &[("p", "p")],
    )?;
    p.add_box(
        "pkc",
        Interface::new()
            .power("q", Quantity::displacement())?
            .power("p", Quantity::momentum())?,
        &[("q", "q"), ("p", "p")],
    )?;
    Ok(p)
}

/// The oscillator of Fig. 5 with stiffness `k` and mass `m`: $\dot q = p/m$,
/// $\dot p = -kq + p.f$ (eq. (5)).
pub fn oscillator(k: f64, m: f64) -> Result<Composite, EphsError> {
    let mut c = Composite::new(oscillator_pattern()?)?;
    c.fill("pe", hookean_spring(k)?)?
        .fill("ke", point_mass(m)?)?
        .fill("pkc", pkc()?)?;
    Ok(c)
}

/// The pattern of Fig. 6 (boxes osc, mf, env; isolated).
pub fn damped_oscillator_pattern() -> Result<Pattern, EphsError> {
    let mut p = Pattern::new("dosc");
    p.add_junction("p", Quantity::momentum())?;
    p.add_junction("s", Quantity::entropy())?;
    p.add_box(
        "osc",
        Interface::new().power("p", Quantity::momentum())?,
        &[("p", "p")],
    )?;
    p.add_box(
        "mf",
        Interface::new()
            .power("p", Quantity::momentum())?
            .power("s", Quantity::entropy())?,
        &[("p", "p"), ("s", "s")],
    )?;
    p.add_box(
        "env",
        Interface::new().power("s", Quantity::entropy())?,
        &[("s", "s")],
    )?;
    Ok(p)
}

/// The damped oscillator of Fig. 6: $\dot q = v$, $\dot p = -kq - dv$,
/// $\dot s = dv^2/\theta_0$ with $v = p/m$ (eq. (8)).
pub fn damped_oscillator(k: f64, m: f64, d: f64) -> Result<System, EphsError> {
    let mut c = Composite::new(damped_oscillator_pattern()?)?;
    c.fill("osc", oscillator(k, m)?)?
        .fill("mf", linear_friction(d)?)?
        .fill("env", environment())?;
    Ok(c.into())
}
