//! The TOML model format: the shipped models run and reproduce the analytic solutions;
//! errors name the key and line.
use phlex_ephs::model_file::Model;

fn load(name: &str) -> (String, String) {
    let path = format!("{}/../../examples/ephs/{name}", env!("CARGO_MANIFEST_DIR"));
    (path.clone(), std::fs::read_to_string(&path).unwrap())
}

#[test]
fn damped_oscillator_model_matches_eq8() {
    let (f, text) = load("damped_oscillator.toml");
    let m = Model::parse(&f, &text).unwrap();
    let traj = m.simulate().unwrap();
    assert_eq!(traj.columns, ["osc.pe.q", "osc.ke.p", "env.s"]);
    assert_eq!(traj.t.len(), 201);
    // Underdamped solution with m = k = 1, d = 0.1, q0 = 1, p0 = 0.
    let zeta: f64 = 0.05;
    let wd = (1.0 - zeta * zeta).sqrt();
    let mut err = 0.0f64;
    for (t, y) in traj.t.iter().zip(&traj.y) {
        let q = (-zeta * t).exp() * ((wd * t).cos() + zeta / wd * (wd * t).sin());
        err = err.max((y[0] - q).abs());
    }
    let de = traj
        .total_energy
        .iter()
        .fold(0.0f64, |a, e| a.max((e - traj.total_energy[0]).abs()));
    println!("model file: damped oscillator error {err:.3e}, total energy drift {de:.3e}");
    // rtol = 1e-10 in the file.
    assert!(err < 1e-8 && de < 1e-8, "{err} {de}");
    assert!(traj.entropy.windows(2).all(|w| w[1] >= w[0] - 1e-15));
}

#[test]
fn driven_oscillator_and_rigid_body_models_run() {
    let (f, text) = load("oscillator.toml");
    let traj = Model::parse(&f, &text).unwrap().simulate().unwrap();
    // m q̈ + k q = 0.1 sin t, q(0) = 1, q̇(0) = 0, ω² = 4:
    // q = cos 2t + (0.1/3)(sin t − ½ sin 2t).
    let mut err = 0.0f64;
    for (t, y) in traj.t.iter().zip(&traj.y) {
        let q = (2.0 * t).cos() + 0.1 / 3.0 * (t.sin() - 0.5 * (2.0 * t).sin());
        err = err.max((y[0] - q).abs());
    }
    println!("model file: driven oscillator (midpoint, h = 1e-3) error {err:.3e}");
    // Midpoint, h = 1e-3, ω = 2: phase error ω³h²t/24 ≈ 3e-6 at t = 10.
    assert!(err < 1e-5, "{err}");

    let (f, text) = load("free_rigid_body.toml");
    let traj = Model::parse(&f, &text).unwrap().simulate().unwrap();
    assert_eq!(traj.columns.len(), 18);
    let e0 = traj.total_energy[0];
    let de = traj
        .total_energy
        .iter()
        .fold(0.0f64, |a, e| a.max((e - e0).abs() / e0));
    println!("model file: free rigid body energy drift {de:.3e}");
    assert!(de < 1e-10);
}

fn parse_err(text: &str) -> String {
    Model::parse("m.toml", text)
        .and_then(|m| m.build().map(|_| m))
        .unwrap_err()
        .to_string()
}

#[test]
fn errors_name_key_and_line() {
    let (_, good) = load("damped_oscillator.toml");
    // Unknown key in [simulation].
    let e = parse_err(&good.replace(
        "output_samples = 200",
        "output_samples = 200\nstep_size = 3",
    ));
    assert!(e.contains("step_size") && e.starts_with("m.toml:"), "{e}");
    // Wrong quantity at a junction: port and both quantities are named, with the line.
    let bad = good.replace(
        "boxes.mf = { fill = \"friction\", ports = { p = \"p\", s = \"s\" } }",
        "boxes.mf = { fill = \"friction\", ports = { p = \"s\", s = \"s\" } }",
    );
    let e = parse_err(&bad);
    let line = bad.lines().position(|l| l.starts_with("boxes.mf")).unwrap() + 1;
    assert!(
        e.contains("mf.p") && e.contains("(R, momentum)") && e.contains("(R, entropy)"),
        "{e}"
    );
    assert!(e.starts_with(&format!("m.toml:{line}:")), "{e}");
    // Unknown fill.
    let e = parse_err(&good.replace("fill = \"friction\"", "fill = \"fricton\""));
    assert!(e.contains("fricton") && e.contains("friction"), "{e}");
    // Bad parameter value names the component.
    let e = parse_err(&good.replace("damping = 0.1", "damping = -0.1"));
    assert!(e.contains("friction") && e.contains("0 ≤ d"), "{e}");
    // Unknown component parameter.
    let e = parse_err(&good.replace("damping = 0.1", "damping = 0.1\nd = 2"));
    assert!(e.contains("`d`"), "{e}");
    // Unconnected port.
    let e = parse_err(&good.replace(", s = \"s\" } }\nboxes.env", " } }\nboxes.env"));
    assert!(e.contains("unconnected port 's' of box 'mf'"), "{e}");
    // Two storages on one junction.
    let e = parse_err(&good.replace(
        "boxes.ke = { fill = \"mass\", ports = { p = \"p\" } }",
        "boxes.ke = { fill = \"mass\", ports = { p = \"p\" } }\nboxes.ke2 = { fill = \"mass\", ports = { p = \"p\" } }",
    ));
    assert!(
        e.contains("osc.ke.p") && e.contains("osc.ke2.p") && e.contains("more than one storage"),
        "{e}"
    );
    // Wrong number of initial coordinates.
    let e = parse_err(&good.replace("\"osc.pe.q\" = 1.0", "\"osc.pe.q\" = [1.0, 2.0]"));
    assert!(e.contains("initial.osc.pe.q"), "{e}");
    // Pattern cycle.
    let e = parse_err(&good.replace(
        "boxes.osc = { fill = \"osc\"",
        "boxes.osc = { fill = \"dosc\"",
    ));
    assert!(e.contains("cycle"), "{e}");
}

#[test]
fn two_body_model_transfers_spin_and_produces_entropy() {
    let (f, text) = load("two_body_revolute.toml");
    let m = Model::parse(&f, &text).unwrap();
    let traj = m.simulate().unwrap();
    let e0 = traj.total_energy[0];
    let de = traj
        .total_energy
        .iter()
        .fold(0.0f64, |a, e| a.max((e - e0).abs() / e0));
    // Angular momentum about e3: J1 ω1 + J2 ω2 = 0.2 is conserved; friction drives both to
    // the common rate ω = 0.2/(0.15 + 0.1) = 0.8, so E_mech → ½·0.25·0.8² = 0.08 from 0.2.
    let col = |n: &str| traj.columns.iter().position(|c| c == n).unwrap();
    let (w1, w2) = (col("b1.ke.p[2]"), col("b2.ke.p[2]"));
    let y = traj.y.last().unwrap();
    let (l1, l2) = (y[w1], y[w2]);
    let e_end = *traj.mechanical_energy.last().unwrap();
    let s_end = *traj.entropy.last().unwrap();
    println!(
        "two-body model: |ΔE_tot|/E {de:.3e}, L1 + L2 = {:.12}, ω1 = {:.4}, ω2 = {:.4}, E_mech {e_end:.5}, θ0 s {:.5}",
        l1 + l2,
        l1 / 0.15,
        l2 / 0.1,
        300.0 * s_end
    );
    assert!(de < 1e-12, "{de}");
    assert!((l1 + l2 - 0.2).abs() < 1e-10);
    // Relative spin decays like exp(−c (1/J1 + 1/J2) t) = exp(−0.05·16.67·10) ≈ 2.4e-4.
    assert!((l1 / 0.15 - 0.8).abs() < 1e-3 && (l2 / 0.1 - 0.8).abs() < 1e-3);
    assert!((e_end + 300.0 * s_end - 0.2).abs() < 1e-12);
    assert!(traj.entropy.windows(2).all(|w| w[1] >= w[0]));
    // The pattern can be drawn.
    let svg = m.draw(None).unwrap();
    assert_eq!(svg.matches(r#"class="box""#).count(), 3);
    let svg = m.draw(Some("mbs")).unwrap();
    assert!(svg.contains(">j<"));
}

#[test]
fn declared_box_interface_with_renaming_and_its_mismatch() {
    let (f, text) = load("damped_oscillator.toml");
    // Box `osc` typed by its own interface {v: momentum}, filled by the pattern `osc`
    // (port p) up to the renaming v → p: the same model.
    let renamed = text.replace(
        r#"boxes.osc = { fill = "osc", ports = { p = "p" } }"#,
        r#"boxes.osc = { fill = "osc", interface = { v = "momentum" }, rename = { v = "p" }, ports = { v = "p" } }"#,
    );
    assert_ne!(renamed, text);
    let a = Model::parse(&f, &text).unwrap().simulate().unwrap();
    let b = Model::parse(&f, &renamed).unwrap().simulate().unwrap();
    assert_eq!(a.y, b.y);
    // A box declared with a state port where the filling has a power port, and a renaming
    // to a port the filling does not have: interface mismatches naming box and port.
    let bad = text.replace(
        r#"boxes.osc = { fill = "osc", ports = { p = "p" } }"#,
        r#"boxes.osc = { fill = "osc", interface_state = { p = "momentum" }, ports = { p = "p" } }"#,
    );
    let e = parse_err(&bad);
    assert!(
        e.contains("interface mismatch when filling box 'osc'")
            && e.contains("box port 'p' is a state port"),
        "{e}"
    );
    let bad = text.replace(
        r#"boxes.osc = { fill = "osc", ports = { p = "p" } }"#,
        r#"boxes.osc = { fill = "osc", interface = { v = "momentum" }, rename = { v = "w" }, ports = { v = "p" } }"#,
    );
    let e = parse_err(&bad);
    assert!(
        e.contains("interface mismatch when filling box 'osc'") && e.contains("'w'"),
        "{e}"
    );
    // Renaming without a declared interface is rejected with the key.
    let bad = text.replace(
        r#"boxes.osc = { fill = "osc", ports = { p = "p" } }"#,
        r#"boxes.osc = { fill = "osc", rename = { v = "p" }, ports = { p = "p" } }"#,
    );
    let e = parse_err(&bad);
    assert!(e.contains("rename") && e.contains("interface"), "{e}");
}

#[test]
fn trajectory_diagnostics_of_the_two_body_model() {
    let (f, text) = load("two_body_revolute.toml");
    let tr = Model::parse(&f, &text).unwrap().simulate().unwrap();
    assert_eq!(
        tr.diagnostic_columns(),
        [
            "exergy_destruction[j.mf]",
            "momentum.L_x",
            "momentum.L_y",
            "momentum.L_z",
            "momentum.P_x",
            "momentum.P_y",
            "momentum.P_z",
            "drift[j]"
        ]
    );
    let ur = tr.columns.iter().position(|c| c == "j.p_r.e").unwrap();
    let mut dmu = 0.0f64;
    for k in 0..tr.t.len() {
        let row = tr.diagnostic_row(k);
        // Exergy destruction of the joint friction: μ u_r² (θ = θ0, μ = 0.05).
        let u = tr.y[k][ur];
        assert!((row[0] - 0.05 * u * u).abs() < 1e-15, "{} {}", row[0], u);
        for c in 0..6 {
            dmu = dmu.max((tr.spatial_momentum[k][c] - tr.spatial_momentum[0][c]).abs());
        }
    }
    // No gravity: the spatial momentum (0, 0, 0.2, 0, 0, 0) is conserved (midpoint with
    // the Cayley retraction; measured 8e-17).
    assert_eq!(tr.spatial_momentum[0], [0.0, 0.0, 0.2, 0.0, 0.0, 0.0]);
    assert!(dmu < 1e-13, "{dmu}");
    // Total exergy destroyed θ0 Δs; the trapezoidal integral of the rate on the 0.1 s grid
    // agrees to its O(Δt²) error (the rate decays with a 0.3 s time constant: ~1 %).
    let exact = tr.theta0 * (tr.entropy.last().unwrap() - tr.entropy[0]);
    let quad = tr.exergy_destroyed_by_component()[0];
    assert!((quad - exact).abs() < 2e-2 * exact, "{quad} {exact}");
    // Drift without stabilisation: the O(h²) error, reported per joint.
    let d = tr.max_joint_drift()[0];
    assert!(d > 0.0 && d < 1e-3, "{d}");
    // With the projection (midpoint only) the drift is round-off.
    let stab = text.replace("output_every = 10", "output_every = 10\nprojection = true");
    let tr = Model::parse(&f, &stab).unwrap().simulate().unwrap();
    assert!(tr.max_joint_drift()[0] < 1e-13);
    assert!(tr.projection_work.iter().all(|w| w.abs() < 1e-12));
    // Projection with Radau5 is rejected, naming the key.
    let bad = stab
        .replace("integrator = \"midpoint\"", "integrator = \"radau5\"")
        .replace("output_every = 10\n", "");
    let e = parse_err(&bad);
    assert!(e.contains("simulation.projection"), "{e}");
}

#[test]
fn initial_states_inconsistent_with_the_joints_are_rejected() {
    let (_, text) = load("two_body_revolute.toml");
    // Body 2 displaced off the joint axis: position constraint violated.
    let bad = text.replace("position = [0.0, 0.0, 1.0]", "position = [0.1, 0.0, 1.0]");
    let e = parse_err(&bad);
    assert!(
        e.contains("position constraint") && e.contains("joint `j`"),
        "{e}"
    );
    // Body 2 spinning about e1, which the revolute joint (axis e3) forbids.
    let bad = text.replace(
        r#""b2.ke.p" = [0.0, 0.0, 0.2, 0.0, 0.0, 0.0]"#,
        r#""b2.ke.p" = [0.2, 0.0, 0.0, 0.0, 0.0, 0.0]"#,
    );
    let e = parse_err(&bad);
    assert!(e.contains("velocity constraints"), "{e}");
}

#[test]
fn inconsistent_initial_velocities_are_projected_on_request() {
    use phlex_ephs::library::kinematics::Kinematics;
    let (f, text) = load("two_body_revolute.toml");
    // Body 2 spins about e1 and e3; the revolute joint (axis e3) forbids the e1 part.
    let bad = text.replace(
        r#""b2.ke.p" = [0.0, 0.0, 0.2, 0.0, 0.0, 0.0]"#,
        r#""b2.ke.p" = [0.3, 0.0, 0.2, 0.0, 0.0, 0.0]"#,
    );
    let fixed = bad.replace(
        "output_every = 10",
        "output_every = 10\ninitial_velocities = \"project\"",
    );
    let m = Model::parse(&f, &fixed).unwrap();
    let (dae, y) = m.build().unwrap();
    let kin = Kinematics::new(&dae);
    // The projection is an internal impulse: the total spatial momentum of the given
    // (inconsistent) momenta is kept, and the kinetic energy drops (inelastic locking).
    // The unprojected state: the consistent file's state with the same momenta as `bad`.
    let (_, mut y_bad) = Model::parse(&f, &text).unwrap().build().unwrap();
    let r = dae.state_range("b2.ke.p").unwrap();
    y_bad[r].copy_from_slice(&[0.3, 0.0, 0.2, 0.0, 0.0, 0.0]);
    let mu0 = kin.spatial_momentum(&y_bad).unwrap();
    let mu1 = kin.spatial_momentum(&y).unwrap();
    for k in 0..6 {
        assert!((mu0[k] - mu1[k]).abs() < 1e-15, "{mu0:?} {mu1:?}");
    }
    assert!(dae.mechanical_energy(&y) < dae.mechanical_energy(&y_bad));
    // Consistent: the algebraic equations hold (make_consistent residual) and the run
    // conserves E_mech + θ0 s.
    let mut y2 = y.clone();
    assert!(dae.make_consistent(0.0, &mut y2).unwrap() < 1e-13);
    let tr = m.simulate().unwrap();
    let e0 = tr.total_energy[0];
    assert!(tr
        .total_energy
        .iter()
        .all(|e| (e - e0).abs() < 1e-12 * e0.abs()));
}
