//! Typed errors of the EPHS language (issue 5 §6): each names the offending items.
use std::sync::Arc;

use phlex_ephs::language::{ConstantMatrix, Interface, PortKind, Primitive, Quantity};
use phlex_ephs::library::mechanics::{hookean_spring, pkc, point_mass};
use phlex_ephs::library::oscillator::{damped_oscillator_pattern, oscillator};
use phlex_ephs::{assemble, Composite, EphsDae, EphsError, Pattern, System};

fn momentum_box() -> Interface {
    Interface::new().power("p", Quantity::momentum()).unwrap()
}

fn displacement_box() -> Interface {
    Interface::new()
        .power("q", Quantity::displacement())
        .unwrap()
}

/// The interface of a coupling of a displacement and a momentum (ports q, p).
fn coupling_box() -> Interface {
    displacement_box().power("p", Quantity::momentum()).unwrap()
}

/// A composite `name` with junctions q (displacement) and p (momentum), a Hookean spring
/// of stiffness `k` in box `pe` on q, and `coupling` in box `box_name` on (q, p).
fn spring_and_coupling(name: &str, k: f64, box_name: &str, coupling: impl Into<System>) -> System {
    let mut p = Pattern::new(name);
    p.add_junction("q", Quantity::displacement()).unwrap();
    p.add_junction("p", Quantity::momentum()).unwrap();
    p.add_box("pe", displacement_box(), &[("q", "q")]).unwrap();
    p.add_box(box_name, coupling_box(), &[("q", "q"), ("p", "p")])
        .unwrap();
    let mut c = Composite::new(p).unwrap();
    c.fill("pe", hookean_spring(k).unwrap()).unwrap();
    c.fill(box_name, coupling).unwrap();
    c.into()
}

#[test]
fn two_storages_on_one_junction() {
    let mut p = Pattern::new("twice");
    p.add_junction("p", Quantity::momentum()).unwrap();
    p.add_box("ke1", momentum_box(), &[("p", "p")]).unwrap();
    p.add_box("ke2", momentum_box(), &[("p", "p")]).unwrap();
    let mut c = Composite::new(p).unwrap();
    c.fill("ke1", point_mass(1.0).unwrap()).unwrap();
    c.fill("ke2", point_mass(2.0).unwrap()).unwrap();
    let e = assemble(&c.into()).unwrap_err();
    assert_eq!(
        e,
        EphsError::MultipleStorages {
            junction: "p".into(),
            storages: "ke1.p, ke2.p".into()
        }
    );
    println!("{e}");
}

#[test]
fn unconnected_port_and_unfilled_box() {
    let mut p = Pattern::new("loose");
    p.add_junction("p", Quantity::momentum()).unwrap();
    p.add_box("pkc", coupling_box(), &[("p", "p")]).unwrap();
    let e = Composite::new(p).unwrap_err();
    assert!(
        matches!(&e, EphsError::UnconnectedPort { box_name, port, .. } if box_name == "pkc" && port == "q")
    );
    println!("{e}");

    let c = Composite::new(damped_oscillator_pattern().unwrap()).unwrap();
    let e = assemble(&c.into()).unwrap_err();
    assert!(matches!(&e, EphsError::UnfilledBox { box_name, .. } if box_name == "osc"));
    println!("{e}");
}

#[test]
fn interface_mismatch_when_filling_and_renaming() {
    let mut c = Composite::new(damped_oscillator_pattern().unwrap()).unwrap();
    // The box `mf` has ports p (momentum) and s (entropy); a spring has only q.
    let e = c.fill("mf", hookean_spring(1.0).unwrap()).unwrap_err();
    assert!(matches!(&e, EphsError::InterfaceMismatch { box_name, .. } if box_name == "mf"));
    println!("{e}");
    // The box `env` (port s: entropy) filled by a point mass (port p: momentum), renamed:
    // the quantities differ and the message names both.
    let e = c
        .fill_renamed("env", point_mass(1.0).unwrap(), &[("s", "p")])
        .unwrap_err();
    let msg = e.to_string();
    assert!(
        msg.contains("(R, entropy)") && msg.contains("(R, momentum)"),
        "{msg}"
    );
    // Renaming up to port names is accepted: osc's outer port renamed to `m`.
    let mut p = Pattern::new("osc2");
    p.add_junction("q", Quantity::displacement()).unwrap();
    p.add_junction("m", Quantity::momentum()).unwrap();
    p.expose("m", "m", PortKind::Power).unwrap();
    p.add_box("pe", displacement_box(), &[("q", "q")]).unwrap();
    p.add_box("ke", momentum_box(), &[("p", "m")]).unwrap();
    p.add_box("pkc", coupling_box(), &[("q", "q"), ("p", "m")])
        .unwrap();
    let mut o = Composite::new(p).unwrap();
    o.fill("pe", hookean_spring(1.0).unwrap()).unwrap();
    o.fill("ke", point_mass(1.0).unwrap()).unwrap();
    o.fill("pkc", pkc().unwrap()).unwrap();
    c.fill_renamed("osc", o, &[("p", "m")]).unwrap();
    // The original osc (port p) fills without renaming.
    c.fill("osc", oscillator(1.0, 1.0).unwrap()).unwrap();
}

#[test]
fn undetermined_effort_is_reported() {
    // Junction p carries only the port of a (degenerate, J = 0) coupling: its effort is
    // an algebraic unknown whose flow balance 0 = p.f ≡ 0 determines nothing, even after
    // differentiation (summary pitfall 16). The consistent-initialisation Newton step
    // detects the singular Jacobian and names the unknown.
    let null = Primitive::poisson(
        "null",
        coupling_box(),
        Arc::new(ConstantMatrix::new(2, vec![0.0; 4])),
        &[],
    )
    .unwrap();
    let sys = spring_and_coupling("half", 1.0, "c", null);
    let dae = EphsDae::new(assemble(&sys).unwrap(), 300.0).unwrap();
    assert_eq!(dae.algebraic_names(), ["p.e"]);
    let mut y = vec![0.5, 0.0];
    let e = dae.make_consistent(0.0, &mut y).unwrap_err();
    assert!(matches!(&e, EphsError::Undetermined { variables, .. } if variables == "p.e"));
    println!("{e}");
}

#[test]
fn storage_free_junction_gives_a_constraint() {
    // With the canonical pkc instead, junction p (no storage) turns the flow balance
    // 0 = pkc.p.f = k q into a constraint and p.e into its multiplier (index 2): the
    // consistent value of p.e follows from the hidden constraint k q̇ = k p.e = 0.
    let sys = spring_and_coupling("half", 2.0, "pkc", pkc().unwrap());
    let dae = EphsDae::new(assemble(&sys).unwrap(), 300.0).unwrap();
    use phlex_solve::ImplicitDae;
    assert_eq!(dae.variable_indices(), [0, 2]);
    let mut y = vec![0.0, 3.0];
    let r = dae.make_consistent(0.0, &mut y).unwrap();
    assert!(r == 0.0 && y[1].abs() < 1e-12, "{y:?}");
}

#[test]
fn undetermined_state_is_reported() {
    // A Poisson component reading the state of a storage-free junction.
    let reader = Primitive::poisson(
        "reader",
        coupling_box(),
        Arc::new(ConstantMatrix::new(2, vec![0.0, -1.0, 1.0, 0.0])),
        &["p"],
    )
    .unwrap();
    let e = assemble(&spring_and_coupling("blind", 1.0, "r", reader)).unwrap_err();
    assert_eq!(
        e,
        EphsError::UndeterminedState {
            junction: "p".into(),
            port: "r.p".into()
        }
    );
    println!("{e}");
}
