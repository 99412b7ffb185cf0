//! End-to-end tests of plate model files (`[plate]`): the thesis's clamped-square
//! frequencies through `phlex modes`, energy conservation and VTK output of `phlex run`,
//! the power balance of a traction-driven plate, and clear errors.
mod common;

use std::path::{Path, PathBuf};

use common::{phlex, root, run_summary};

fn tmpdir(name: &str) -> PathBuf {
    common::created_dir("phlex-plate", name)
}

const PLATE: &str = r#"
[model]
name = "plate"

[plate]
theory = "mindlin"
lx = 1.0
ly = 1.0
nx = NX
ny = NX
youngs_modulus = 1.0e12
poisson_ratio = 0.3
density = 2600.0
thickness = 0.1
EDGES
"#;

fn write_model(dir: &Path, nx: usize, edges: &str, rest: &str) -> PathBuf {
    let text = PLATE.replace("NX", &nx.to_string()).replace("EDGES", edges) + rest;
    let p = dir.join("plate.toml");
    std::fs::write(&p, text).unwrap();
    p
}

/// Thesis 004 App. C (summary §5.2), 40 × 40 CG1/DG0, clamped by multipliers: ω̂ = 1.59,
/// 3.04, 3.06, 4.29, 5.05, 5.10, printed truncated to two decimals (the library test
/// `plate_mindlin` explains why these are the values to compare with); ω̂ = ω √(2(1+ν)ρ/E).
#[test]
fn modes_reproduce_the_thesis_clamped_square() {
    let dir = tmpdir("modes");
    let model = write_model(
        &dir,
        40,
        r#"edges = { left = "clamped_weak", right = "clamped_weak", bottom = "clamped_weak", top = "clamped_weak" }"#,
        "",
    );
    let json = dir.join("modes.json");
    let v = common::modes_json(&model, &[], &json);
    let scale = (2.0 * 1.3 * 2600.0 / 1e12f64).sqrt();
    let thesis = [1.59, 3.04, 3.06, 4.29, 5.05, 5.10];
    let modes = v["modes"].as_array().unwrap();
    assert_eq!(modes.len(), 6);
    for (m, t) in modes.iter().zip(thesis) {
        let w = m["omega"].as_f64().unwrap() * scale;
        assert!(((w * 100.0).floor() / 100.0 - t).abs() < 1e-9, "{w} vs {t}");
    }
}

/// Kirchhoff HHJ example (k = 2, 12 × 8) against Navier's closed form for the simply
/// supported rectangle, ω_mn = π²(m²/a² + n²/b²)√(D/ρh): the six lowest within 5e-4
/// relative (measured ≤ 3.9e-4).
#[test]
fn kirchhoff_modes_match_navier() {
    let dir = tmpdir("kirchhoff");
    let json = dir.join("modes.json");
    let om = common::modes_omegas(
        root().join("examples/plate_kirchhoff_ssss.toml"),
        &[],
        &json,
    );
    common::assert_rel_each(&om, &navier_1_5(), 5e-4, "Navier");
}

/// Navier's frequencies ω_mn = π²(m²/a² + n²/b²)√(D/ρh), m, n = 1..5, of the simply
/// supported 1.5 m × 1 m aluminium plate (h = 1 cm) of the Kirchhoff examples, sorted.
fn navier_1_5() -> Vec<f64> {
    let (e, nu, rho, h, a, b) = (70e9f64, 0.35f64, 2700.0f64, 0.01f64, 1.5f64, 1.0f64);
    let d = e * h.powi(3) / (12.0 * (1.0 - nu * nu));
    common::sorted_grid(6, |m, n| {
        std::f64::consts::PI.powi(2) * (m * m / (a * a) + n * n / (b * b)) * (d / (rho * h)).sqrt()
    })
}

fn modes_of(model: &Path, tag: &str) -> Vec<f64> {
    common::modes_omegas(model, &[], &tmpdir(tag).join("modes.json"))
}

/// Bell × DG3 example (`element = "bell"`, 6 × 4 cells, conditions on the whole edge):
/// Navier's six lowest frequencies within 5e-4 (measured ≤ 2.4e-4; the element converges
/// at order 3 in H², library test `plate_kirchhoff_bell`).
#[test]
fn bell_modes_match_navier() {
    let om = modes_of(&root().join("examples/plate_bell_ssss.toml"), "bell");
    assert_eq!(om.len(), 6);
    common::assert_rel_each(&om, &navier_1_5(), 5e-4, "Navier");
}

/// Symmetric cross-ply [0/90/90/0] (example file): classical lamination theory computed
/// here independently (reduced stiffnesses Q, ply sums D_ij = Σ Q̄_ij (z_k³ − z_{k−1}³)/3),
/// Navier's frequencies of the specially orthotropic plate; the HHJ k = 2, 10 × 10 model is
/// within 0.5 % for the four lowest (D16 = D26 = 0 and B = 0 for this stack, so the
/// closed form is exact).
#[test]
fn laminated_crossply_matches_navier() {
    let om = modes_of(
        &root().join("examples/plate_laminated_crossply.toml"),
        "laminate",
    );
    let (e1, e2, nu12, g12, rho, t) = (
        181e9f64, 10.3e9f64, 0.28f64, 7.17e9f64, 1600.0f64, 0.0025f64,
    );
    let nu21 = nu12 * e2 / e1;
    let den = 1.0 - nu12 * nu21;
    let (q11, q22, q12, q66) = (e1 / den, e2 / den, nu12 * e2 / den, g12);
    // plies 0, 90, 90, 0 from z = -2t
    let z: [f64; 5] = [-2.0 * t, -t, 0.0, t, 2.0 * t];
    let (mut d11, mut d22, mut d12, mut d66) = (0.0, 0.0, 0.0, 0.0);
    for (k, angle) in [0, 90, 90, 0].iter().enumerate() {
        let w = (z[k + 1].powi(3) - z[k].powi(3)) / 3.0;
        let (a11, a22) = if *angle == 0 { (q11, q22) } else { (q22, q11) };
        d11 += a11 * w;
        d22 += a22 * w;
        d12 += q12 * w;
        d66 += q66 * w;
    }
    let i0 = rho * 4.0 * t;
    let pi = std::f64::consts::PI;
    let navier = common::sorted_grid(5, |m, n| {
        (pi.powi(4) / i0
            * (d11 * m.powi(4) + 2.0 * (d12 + 2.0 * d66) * m * m * n * n + d22 * n.powi(4)))
        .sqrt()
    });
    assert_eq!(om.len(), 4);
    common::assert_rel_each(&om, &navier, 5e-3, "Navier");
}

/// Mindlin AFW (`element = "afw"`, k = 2, 8 × 8; clamping is natural) against the
/// converged CGDG frequencies of the same clamped square (k = 3, 12 × 12, strong
/// clamping; measured ω̂ = 1.58703, 3.02720 (double), 4.24278, 4.99837, 5.04608 — the
/// AFW k = 3 12 × 12 model agrees to 3e-5): the six lowest within 0.5 % (measured ≤ 0.24 %);
/// the exact double mode appears twice. `phlex run` of the AFW plate (equilibrated
/// variables) conserves H to 1e-10.
#[test]
fn afw_modes_match_converged_cgdg() {
    let dir = tmpdir("afw");
    let model = write_model(
        &dir,
        8,
        "element = \"afw\"\ndegree = 2\n",
        "[initial]\ne_w = \"sin(pi*x)^2*sin(pi*y)^2\"\n[simulation]\nintegrator = \"midpoint\"\nt_end = 2e-4\ndt = 1e-5\n[modes]\ncount = 6\n",
    );
    let om = modes_of(&model, "afw-modes");
    let scale = (2.0 * 1.3 * 2600.0 / 1e12f64).sqrt();
    let converged = [1.58703, 3.02720, 3.02720, 4.24278, 4.99837, 5.04608];
    assert_eq!(om.len(), 6);
    for (o, c) in om.iter().zip(converged) {
        let w = o * scale;
        assert!((w / c - 1.0).abs() < 5e-3, "{w} vs {c}");
    }
    let v = run_summary(&model, &dir.join("run"));
    assert!(v["energy_drift"].as_f64().unwrap() < 1e-10);
}

/// Mindlin CGDG with hard simple supports on all edges (`simply_supported`: w = θ_s = 0
/// strong, M_nn = 0 natural; summary §2.5 boundary table), k = 2, 20 × 20, App. C data:
/// the exact Navier solution of the hard simply supported Mindlin plate — for each (m, n),
/// k² = π²(m² + n²), the lower root x = ω² of (κGh k² − ρh x)(D k² + κGh − ρh³x/12) =
/// (κGh)² k² — within 5e-4 for the six lowest (measured ≤ 2e-4; the (1,2)/(2,1) pair is
/// double).
#[test]
fn mindlin_simply_supported_matches_navier() {
    let dir = tmpdir("mindlin-ss");
    let model = write_model(
        &dir,
        20,
        "degree = 2\nedges = { left = \"simply_supported\", right = \"simply_supported\", bottom = \"simply_supported\", top = \"simply_supported\" }\n",
        "[modes]\ncount = 6\n",
    );
    let om = modes_of(&model, "mindlin-ss-modes");
    let (e, nu, rho, h, ks) = (1e12f64, 0.3f64, 2600.0f64, 0.1f64, 5.0 / 6.0);
    let g = e / (2.0 * (1.0 + nu));
    let d = e * h.powi(3) / (12.0 * (1.0 - nu * nu));
    let (a, ri) = (ks * g * h, rho * h.powi(3) / 12.0);
    let exact = common::sorted_grid(4, |m, n| {
        let k2 = std::f64::consts::PI.powi(2) * (m * m + n * n);
        let qa = rho * h * ri;
        let qb = -(a * k2 * ri + rho * h * (d * k2 + a));
        let qc = a * k2 * (d * k2 + a) - a * a * k2;
        ((-qb - (qb * qb - 4.0 * qa * qc).sqrt()) / (2.0 * qa)).sqrt()
    });
    assert_eq!(om.len(), 6);
    common::assert_rel_each(&om, &exact, 5e-4, "Navier");
}

/// The shipped example: the lossless clamped plate conserves H to round-off with the
/// midpoint rule (relative drift < 1e-12), and the VTK series is complete.
#[test]
fn example_run_conserves_energy_and_writes_vtk() {
    let out = tmpdir("run");
    let s = run_summary(&root().join("examples/plate_mindlin_clamped.toml"), &out);
    assert!(s["energy_drift"].as_f64().unwrap() < 1e-12, "{s}");
    // 100 steps, every 2nd recorded → 51 samples, every 5th sample → 11 snapshots
    let pvd = std::fs::read_to_string(out.join("plate.pvd")).unwrap();
    assert_eq!(pvd.matches("<DataSet").count(), 11);
    for k in 0..11 {
        let f = out.join(format!("fields/plate_{k:04}.vtu"));
        let text = std::fs::read_to_string(&f).unwrap();
        assert!(text.contains("NumberOfPoints=\"441\" NumberOfCells=\"800\""));
    }
    for f in ["timeseries.csv", "energy.svg", "probes.svg"] {
        assert!(out.join(f).exists(), "missing {f}");
    }
}

/// A cantilever plate (left clamped) driven by a shear traction on its free right edge:
/// the energy comes in through the port; the midpoint rule's discrete power balance
/// ΔH = h ȳᵀu holds per step to round-off (relative residual < 1e-10).
#[test]
fn traction_port_power_balance() {
    let dir = tmpdir("port");
    let model = write_model(
        &dir,
        8,
        r#"edges = { left = "clamped", right = "port" }"#,
        r#"
[[input]]
port = "right_qn"
value = "1e6 * sin(3000 * t)"

[simulation]
integrator = "midpoint"
t_end = 2e-3
dt = 1e-5
"#,
    );
    let out = dir.join("out");
    let s = run_summary(&model, &out);
    let supplied = s["energy_supplied"].as_f64().unwrap();
    let h_end = s["h_final"].as_f64().unwrap();
    assert!(h_end > 0.0 && supplied.abs() > 0.0);
    // started at rest: H(end) = work done by the port
    assert!(
        (h_end - supplied).abs() < 1e-9 * h_end,
        "{h_end} vs {supplied}"
    );
    assert!(s["power_balance_residual_relative"].as_f64().unwrap() < 1e-10);
}

fn expect_model_error(edges: &str, rest: &str, needle: &str) {
    let dir = tmpdir(&format!("err-{}", needle.len()));
    let model = write_model(&dir, 4, edges, rest);
    common::model_error(&["run"], &model, &dir.join("out"), needle);
}

#[test]
fn bad_plate_files_fail_clearly() {
    let sim = "\n[simulation]\nintegrator = \"midpoint\"\nt_end = 1e-4\ndt = 1e-5\n";
    expect_model_error(
        r#"edges = { west = "clamped" }"#,
        sim,
        "unknown edge 'west'",
    );
    expect_model_error(
        r#"edges = { left = "pinned" }"#,
        sim,
        "plate.edges.left = 'pinned'",
    );
    expect_model_error(
        r#"edges = { left = "clamped" }"#,
        &format!("{sim}\n[[input]]\nport = \"right_qn\"\nvalue = 1.0\n"),
        "unknown port 'right_qn'",
    );
    expect_model_error(
        r#"edges = { left = "clamped" }"#,
        &format!("{sim}\n[initial]\ne_w = \"sin(z)\"\n"),
        "only x, y, r, theta are allowed",
    );
    expect_model_error(
        r#"edges = { left = "clamped" }"#,
        "",
        "missing section [simulation]",
    );
}

fn modes_json(model: &Path, json: &Path) -> Vec<f64> {
    common::modes_omegas(model, &[], json)
}

/// A plate on a Gmsh mesh (`examples/meshes/unit_square_8.msh`: the unit square as
/// `Mesh2d::rectangle` with the "left" diagonal, written with reversed node numbers and
/// clockwise triangles) has the spectrum of the same structured mesh (renumbered: equal
/// to the eigensolver's accuracy, Ritz tolerance 1e-6; measured ≤ 5e-7; a wrong tag or
/// mesh changes the frequencies by percents), the physical lines being the edge tags; a missing
/// file and a mesh given twice are model errors (exit 2).
#[test]
fn gmsh_mesh_equals_structured_mesh() {
    let dir = tmpdir("gmsh");
    let gm = root().join("examples/plate_gmsh_square.toml");
    let text = std::fs::read_to_string(&gm).unwrap();
    let structured = dir.join("structured.toml");
    std::fs::write(
        &structured,
        text.replace(
            "mesh = \"meshes/unit_square_8.msh\"",
            "lx = 1.0\nly = 1.0\nnx = 8\nny = 8\ndiagonal = \"left\"",
        ),
    )
    .unwrap();
    let a = modes_json(&gm, &dir.join("a.json"));
    let b = modes_json(&structured, &dir.join("b.json"));
    assert_eq!(a.len(), 6);
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() < 1e-5 * y, "{x} vs {y}");
    }
    let mesh_dir = root().join("examples/meshes");
    for (bad, needle) in [
        (
            format!("mesh = \"{}\"", mesh_dir.join("nowhere.msh").display()),
            "plate.mesh",
        ),
        (
            format!(
                "mesh = \"{}\"\nnx = 4",
                mesh_dir.join("unit_square_8.msh").display()
            ),
            "cannot be combined",
        ),
    ] {
        let p = dir.join("bad.toml");
        std::fs::write(
            &p,
            text.replace("mesh = \"meshes/unit_square_8.msh\"", &bad),
        )
        .unwrap();
        let o = phlex().arg("check").arg(&p).output().unwrap();
        assert_eq!(o.status.code(), Some(2));
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{err}");
    }
}

/// `[[plate.load]]` on a simply supported square Kirchhoff plate (HHJ k = 2, 8 × 8 cells),
/// driven by a linear ramp of the uniform pressure q0 over exactly five periods of the first
/// mode: at the end of such a ramp the first mode sits at its static deflection (the
/// transient of a linear ramp over an integer number of periods vanishes), so the centre
/// deflection w = ∫ v dt (trapezoidal, the midpoint rule's own displacement) approaches
/// Navier's α q0 a⁴/D, α = 0.00406235. Error budget: mode (1,3)/(3,1) transients
/// (1.3 % of the static centre deflection × 2/(ω T) ≈ 1.7e-4), the midpoint phase error of
/// mode 1 (100 steps per period, ≈ 3e-4) and the HHJ discretisation; tolerance 3e-3
/// (measured 5.0e-5; power-balance residual 6e-15 relative).
/// The same run balances the power through the load port to round-off.
#[test]
fn distributed_load_reaches_navier_static_deflection() {
    let (e, nu, rho, h, a, q0): (f64, f64, f64, f64, f64, f64) =
        (70e9, 0.3, 2700.0, 0.01, 1.0, 1000.0);
    let d = e * h.powi(3) / (12.0 * (1.0 - nu * nu));
    let pi = std::f64::consts::PI;
    let w1 = 2.0 * (pi / a).powi(2) * (d / (rho * h)).sqrt();
    let t_ramp = 5.0 * 2.0 * pi / w1;
    let dt = t_ramp / 500.0;
    let dir = tmpdir("load");
    let text = format!(
        r#"
[model]
name = "uniformly loaded SSSS plate"

[plate]
theory = "kirchhoff"
lx = {a}
ly = {a}
nx = 8
ny = 8
degree = 2
youngs_modulus = {e}
poisson_ratio = {nu}
density = {rho}
thickness = {h}
edges = {{ left = "simply_supported", right = "simply_supported", bottom = "simply_supported", top = "simply_supported" }}

[[plate.load]]
name = "pressure"
force = "{q0}"

[[input]]
port = "pressure"
value = {{ type = "ramp", t0 = 0.0, t1 = {t_ramp}, v0 = 0.0, v1 = 1.0 }}

[simulation]
integrator = "midpoint"
t_end = {t_ramp}
dt = {dt}

[output]
plots = false
probes = [{{ name = "centre", x = 0.5, y = 0.5 }}]
"#
    );
    let model = dir.join("plate.toml");
    std::fs::write(&model, text).unwrap();
    let out = dir.join("out");
    let s = run_summary(&model, &out);
    let rel = s["power_balance_residual_relative"].as_f64().unwrap();
    let (h_end, supplied) = (
        s["h_final"].as_f64().unwrap(),
        s["energy_supplied"].as_f64().unwrap(),
    );
    // started at rest, no dissipation: H(end) = work of the load
    assert!(rel < 1e-10, "{rel}");
    assert!(
        (h_end - supplied).abs() < 1e-9 * h_end,
        "{h_end} vs {supplied}"
    );
    let csv = std::fs::read_to_string(out.join("timeseries.csv")).unwrap();
    let mut lines = csv.lines();
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let c = head.iter().position(|h| *h == "centre").unwrap();
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|x| x.parse().unwrap()).collect())
        .collect();
    let w: f64 = rows
        .windows(2)
        .map(|r| 0.5 * (r[1][0] - r[0][0]) * (r[0][c] + r[1][c]))
        .sum();
    let navier = 0.00406235 * q0 * a.powi(4) / d;
    let err = (w - navier).abs() / navier;
    eprintln!(
        "centre deflection {w:.6e} vs Navier {navier:.6e} (rel {err:.2e}); t_end {}, power balance {rel:.2e}",
        rows.last().unwrap()[0]
    );
    assert!((rows.last().unwrap()[0] - t_ramp).abs() < 1e-9 * t_ramp);
    assert!(err < 3e-3, "{err}");
}

/// `[[plate.load]]` errors: a torque on a Kirchhoff plate, a load on an unsupported
/// element, a load without force or torque.
#[test]
fn bad_plate_loads_fail_clearly() {
    expect_model_error(
        "[[plate.load]]\nname = \"p\"\nforce = \"1\"\ntorque = [\"0\"]\n",
        "",
        "plate.load 'p' torque: give two expressions",
    );
    expect_model_error(
        "[[plate.load]]\nname = \"p\"\n",
        "",
        "plate.load 'p': give force",
    );
    expect_model_error(
        "element = \"afw\"\n[[plate.load]]\nname = \"p\"\nforce = \"1\"\n",
        "",
        "distributed loads are available for theory = \"mindlin\" (CGDG) and \"kirchhoff\" (HHJ) only",
    );
}

/// A clamped Mindlin CGDG plate under a distributed force and torque
/// (`[[plate.load]]` with `torque`), driven harmonically from rest: no dissipation, so
/// H(end) = work of the load port, and the midpoint balance holds to round-off (< 1e-10).
#[test]
fn mindlin_distributed_load_power_balance() {
    let dir = tmpdir("mload");
    let model = write_model(
        &dir,
        4,
        r#"edges = { left = "clamped", right = "clamped", bottom = "clamped", top = "clamped" }

[[plate.load]]
name = "q"
force = "1e5*x*y"
torque = ["1e3*y", "-1e3*x"]
"#,
        r#"
[[input]]
port = "q"
value = "sin(2000*t)"

[simulation]
integrator = "midpoint"
t_end = 2e-3
dt = 1e-5
"#,
    );
    let out = dir.join("out");
    let s = run_summary(&model, &out);
    let (h_end, supplied) = (
        s["h_final"].as_f64().unwrap(),
        s["energy_supplied"].as_f64().unwrap(),
    );
    let rel = s["power_balance_residual_relative"].as_f64().unwrap();
    eprintln!("H(end) {h_end:.6e}, supplied {supplied:.6e}, residual {rel:.2e}");
    assert!(h_end > 0.0);
    assert!(
        (h_end - supplied).abs() < 1e-9 * h_end,
        "{h_end} vs {supplied}"
    );
    assert!(rel < 1e-10, "{rel}");
}

/// `examples/plate_cantilever_damping.toml` (thesis 004 §8.1.1, Table 8.1): boundary damping
/// injection u = −K y on the three free edges from t = 1 s. Asserted against the invariants
/// and the library run of the same case (`cantilever_boundary_damping` in
/// crates/phlex-fem/tests/plate_kirchhoff.rs, which records every step): H conserved on
/// [0, 1] (the open saddle-point system: drift 1.7e-9 there, so 1e-8), monotone decay
/// afterwards (per recorded sample), H(4)/H(1) < 0.05 and H(5)/H(1) < 0.02 (library: 0.040,
/// 0.014), the energy dissipated equals H(1) − H(5) (joint ledger, drift < 1e-8), the
/// power-balance residual of every step < 1e-8 relative.
#[test]
fn boundary_damping_injection_table_8_1() {
    let out = tmpdir("damping");
    let s = run_summary(&root().join("examples/plate_cantilever_damping.toml"), &out);
    assert_eq!(s["steps"].as_u64().unwrap(), 5000);
    let csv = std::fs::read_to_string(out.join("timeseries.csv")).unwrap();
    let rows: Vec<(f64, f64)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let mut it = l.split(',').map(|v| v.parse::<f64>().unwrap());
            (it.next().unwrap(), it.next().unwrap())
        })
        .collect();
    assert_eq!(rows.len(), 501, "every 10th of 5000 steps");
    let at = |t: f64| {
        rows.iter()
            .min_by(|a, b| (a.0 - t).abs().total_cmp(&(b.0 - t).abs()))
            .unwrap()
            .1
    };
    let (h0, h1, h4, h5) = (rows[0].1, at(1.0), at(4.0), at(5.0));
    for r in rows.iter().filter(|r| r.0 <= 1.0 + 1e-9) {
        assert!(
            (r.1 - h0).abs() < 1e-8 * h0,
            "open phase: H({}) = {}",
            r.0,
            r.1
        );
    }
    for w in rows.windows(2).filter(|w| w[0].0 >= 1.0 - 1e-9) {
        assert!(w[1].1 < w[0].1, "H increased at t = {}", w[1].0);
    }
    assert!(h4 / h1 < 0.05 && h5 / h1 < 0.02, "{} {}", h4 / h1, h5 / h1);
    let dissipated = s["energy_dissipated"].as_f64().unwrap();
    assert!(
        (dissipated - (h1 - h5)).abs() < 1e-6 * h0,
        "{dissipated} vs {}",
        h1 - h5
    );
    assert!(s["energy_drift"].as_f64().unwrap() < 1e-8, "{s}");
    assert!(s["power_balance_residual_relative"].as_f64().unwrap() < 1e-8);
    assert!(s["energy_supplied"].as_f64().unwrap().abs() < 1e-12 * h0);
}

/// `[[damping]]` errors: unknown port, negative gain, damping a port twice, differing
/// `t_on`, damping on a model without trace mass (Mindlin CGDG) — each exit 2 naming it.
#[test]
fn bad_damping_fails_clearly() {
    let cases = [
        (
            "theory = \"kirchhoff\"",
            "[[damping]]\nport = \"right_q\"\ngain = 1.0\n",
            "unknown port",
        ),
        (
            "theory = \"kirchhoff\"",
            "[[damping]]\nport = \"right_qn\"\ngain = -1.0\n",
            "must be finite and >= 0",
        ),
        (
            "theory = \"kirchhoff\"",
            "[[damping]]\nport = \"right_qn\"\ngain = 1.0\n[[damping]]\nport = \"right_qn\"\ngain = 2.0\n",
            "damped twice",
        ),
        (
            "theory = \"kirchhoff\"",
            "[[damping]]\nport = \"right_qn\"\ngain = 1.0\nt_on = 1.0\n[[damping]]\nport = \"right_Mnn\"\ngain = 2.0\n",
            "the same for every",
        ),
        (
            "theory = \"mindlin\"",
            "[[damping]]\nport = \"right_qn\"\ngain = 1.0\n",
            "trace mass",
        ),
    ];
    for (k, (theory, damping, needle)) in cases.iter().enumerate() {
        let dir = tmpdir(&format!("bad_damping_{k}"));
        let model = dir.join("plate.toml");
        std::fs::write(
            &model,
            format!(
                "[model]\nname = \"d\"\n[plate]\n{theory}\nlx = 1.0\nly = 1.0\nnx = 2\nny = 2\nyoungs_modulus = 1e9\npoisson_ratio = 0.3\ndensity = 1000.0\nthickness = 0.01\nedges = {{ left = \"clamped\", right = \"port\" }}\n{damping}"
            ),
        )
        .unwrap();
        let o = phlex().arg("check").arg(&model).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "case {k}: {err}");
        assert!(err.contains(needle), "case {k}: {err}");
    }
}

/// `examples/plate_mindlin_bjt.toml` (BJT, k = 2, 12 × 12 rectangles, clamped square,
/// h/a = 0.1, κ = 5/6): ω̂ = ω √(2(1+ν)ρ/E) against the literature's frequency parameters
/// of the clamped square Mindlin plate, λ = ωa²√(ρh/D)/π² = 3.2954, 6.2858 (double),
/// 8.8098, 10.3788, 10.4778 (Liew, Xiang & Kitipornchai, pb-2 Ritz), converted by
/// ω̂ = λπ²h/√(6(1−ν)): within 0.15 % (measured ≤ 0.08 %; the 24 × 24 grid is within 4e-5).
/// The double mode of the square appears twice.
#[test]
fn bjt_modes_match_the_literature() {
    let dir = tmpdir("bjt-modes");
    let json = dir.join("modes.json");
    let modes = modes_json(&root().join("examples/plate_mindlin_bjt.toml"), &json);
    let scale = (2.0 * 1.3 * 2600.0 / 1e12f64).sqrt();
    let to_hat = std::f64::consts::PI.powi(2) * 0.1 / (6.0f64 * 0.7).sqrt();
    let lambda = [3.2954, 6.2858, 6.2858, 8.8098, 10.3788, 10.4778];
    assert_eq!(modes.len(), 6);
    for (w, l) in modes.iter().zip(lambda) {
        let (got, want) = (w * scale, l * to_hat);
        assert!((got - want).abs() < 1.5e-3 * want, "{got} vs {want}");
    }
    assert!((modes[1] - modes[2]).abs() < 1e-8 * modes[1], "double mode");
}

/// `phlex run` on the BJT example: energy conserved (lossless, no ports), VTK with
/// quadrilateral cells (VTK_QUAD = 9) on the 13 × 13 grid vertices.
#[test]
fn bjt_run_writes_quadrilateral_vtk() {
    let out = tmpdir("bjt-run");
    let s = run_summary(&root().join("examples/plate_mindlin_bjt.toml"), &out);
    assert!(s["energy_drift"].as_f64().unwrap() < 1e-11, "{s}");
    let text = std::fs::read_to_string(out.join("fields/plate_0000.vtu")).unwrap();
    assert!(text.contains("NumberOfPoints=\"169\" NumberOfCells=\"144\""));
    assert!(text.contains("e_w"));
    let types = text.split("Name=\"types\"").nth(1).unwrap();
    assert!(types.trim_start_matches(|c| c != '>').contains('9'));
}

/// AFW traction ports from a model file: a cantilever (left clamped) driven through the
/// right edge's shear-force port `right_qn`; the port work equals H(end) (start at rest)
/// and the per-step balance holds to round-off. Errors for BJT: a free edge, a Gmsh mesh.
#[test]
fn afw_traction_port_and_bjt_errors() {
    let dir = tmpdir("afw-traction");
    let model = write_model(
        &dir,
        4,
        "element = \"afw\"\ndegree = 1\nedges = { left = \"clamped\", right = \"traction_port\", bottom = \"free\", top = \"free\" }",
        "\n[[input]]\nport = \"right_qn\"\nvalue = \"1e6 * sin(3000 * t)\"\n\n[simulation]\nintegrator = \"midpoint\"\nt_end = 2e-3\ndt = 1e-5\n",
    );
    let out = dir.join("out");
    let s = run_summary(&model, &out);
    assert_work_is_energy(&s, "");
    let sim = "\n[simulation]\nintegrator = \"midpoint\"\nt_end = 1e-4\ndt = 1e-5\n";
    expect_model_error(
        "element = \"bjt\"\nedges = { left = \"free\" }",
        sim,
        "only \"clamped\" with element = \"bjt\"",
    );
    expect_model_error(
        "element = \"hhj_bogus\"\nedges = { left = \"clamped\" }",
        sim,
        "\"bjt\" (rectangular grids)",
    );
}

/// Laminated plates with port edges: an antisymmetric [0/90] laminate (B ≠ 0) clamped on the
/// left, its right edge a port driven through the membrane port `right_Nnn` (in-plane
/// force, which bends the plate through B): for both theories, the port work equals H(end)
/// (start at rest) and the per-step balance holds to round-off; a membrane condition on a
/// port edge is an error.
#[test]
fn laminated_port_edges_power_balance() {
    let ply = |angle: f64| {
        format!("[[plate.plies]]\nyoungs_modulus_1 = 181e9\nyoungs_modulus_2 = 10.3e9\npoisson_ratio_12 = 0.28\nshear_modulus_12 = 7.17e9\nshear_modulus_13 = 7.17e9\nshear_modulus_23 = 4.0e9\ndensity = 1600.0\nthickness = 0.0025\nangle_deg = {angle}\n")
    };
    for theory in ["laminated_kirchhoff", "laminated_mindlin"] {
        let dir = tmpdir(&format!("lam-port-{theory}"));
        let model = dir.join("plate.toml");
        std::fs::write(
            &model,
            format!(
                "[model]\nname = \"lam\"\n[plate]\ntheory = \"{theory}\"\nlx = 1.0\nly = 0.5\nnx = 4\nny = 2\ndegree = 2\nedges = {{ left = \"clamped\", right = \"port\" }}\n{}{}\n[[input]]\nport = \"right_Nnn\"\nvalue = \"1e4 * sin(500 * t)\"\n[simulation]\nintegrator = \"midpoint\"\nt_end = 5e-3\ndt = 5e-5\n",
                ply(0.0),
                ply(90.0)
            ),
        )
        .unwrap();
        let out = dir.join("out");
        let o = common::run(&model, &out);
        assert!(
            o.status.success(),
            "{theory}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        let s: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(out.join("summary.json")).unwrap())
                .unwrap();
        assert_work_is_energy(&s, theory);
        let bad = std::fs::read_to_string(&model).unwrap().replace(
            "right = \"port\" }",
            "right = \"port\" }\nmembrane = { right = \"fixed\" }",
        );
        common::check_error("phlex-plate", &bad, "a port edge is free");
    }
}

/// `examples/plate_thermoelastic_ssss.toml` (`[plate.thermal]`, thesis 004 §5.2.2): the
/// fundamental of the simply supported silicon micro-plate has the isothermal Navier
/// frequency 2π²/a²·√(D/ρh) = 886 730 rad/s up to the adiabatic stiffening (≈ Δ_P/2·… ≲ 1e-4;
/// asserted 1e-3) and the damping Q⁻¹ = 2ζ of Lifshitz–Roukes with the plate relaxation
/// strength Δ_P = Eβ²T0(1+ν)/(ρc(1−ν)) at ξ = h√(ω/2χ) (its Gaussian-curvature integral
/// vanishes): within 1 % (measured −0.15 % on this 8 × 8 mesh; the library test
/// `ssss_zener_damping_converges_to_lifshitz_roukes` shows the convergence). `phlex run`:
/// exact discrete balance, H decreases by the dissipated energy. `[plate.thermal]` on a
/// Mindlin plate is an error.
#[test]
fn thermoelastic_plate_zener_damping() {
    let dir = tmpdir("thermo-plate");
    let v: serde_json::Value = {
        let json = dir.join("modes.json");
        common::modes_json(
            root().join("examples/plate_thermoelastic_ssss.toml"),
            &[],
            &json,
        )
    };
    let m0 = &v["modes"][0];
    let (w, zeta) = (
        m0["omega"].as_f64().unwrap(),
        m0["damping_ratio"].as_f64().unwrap(),
    );
    let (e, nu, rho, h, a): (f64, f64, f64, f64, f64) = (130e9, 0.28, 2330.0, 20e-6, 1e-3);
    let d = e * h * h * h / (12.0 * (1.0 - nu * nu));
    let navier = 2.0 * std::f64::consts::PI.powi(2) / (a * a) * (d / (rho * h)).sqrt();
    assert!((w - navier).abs() < 1e-3 * navier, "{w} vs {navier}");
    let (beta, t0, rho_c, k): (f64, f64, f64, f64) = (2.6e-6, 300.0, 1.659e6, 148.0);
    let delta_p = e * beta * beta * t0 * (1.0 + nu) / (rho_c * (1.0 - nu));
    let xi = h * (w / (2.0 * k / rho_c)).sqrt();
    let f =
        6.0 / (xi * xi) - 6.0 / (xi * xi * xi) * (xi.sinh() + xi.sin()) / (xi.cosh() + xi.cos());
    let q_lr = delta_p * f;
    assert!(
        (2.0 * zeta - q_lr).abs() < 0.01 * q_lr,
        "Q^-1 {} vs Lifshitz-Roukes {q_lr}",
        2.0 * zeta
    );
    let s = run_summary(
        &root().join("examples/plate_thermoelastic_ssss.toml"),
        &dir.join("out"),
    );
    let (h0, h1, diss) = (
        s["h_initial"].as_f64().unwrap(),
        s["h_final"].as_f64().unwrap(),
        s["energy_dissipated"].as_f64().unwrap(),
    );
    assert!(
        diss > 0.0 && (h0 - h1 - diss).abs() < 1e-10 * h0,
        "{h0} {h1} {diss}"
    );
    assert!(s["power_balance_residual_relative"].as_f64().unwrap() < 1e-10);
    let text = std::fs::read_to_string(root().join("examples/plate_thermoelastic_ssss.toml"))
        .unwrap()
        .replace("theory = \"kirchhoff\"", "theory = \"mindlin\"");
    common::check_error("phlex-plate", &text, "plate.thermal");
}

/// Bell plate with an essential port from a model file: a cantilever whose clamped edge is a
/// `clamped_port` (inputs `left_wt`, `left_dnwt`: prescribed edge velocity and slope rate,
/// outputs the edge reactions). With zero inputs it has the frequencies of the strongly
/// clamped plate (to the eigensolver's 1e-6); shaken at the root (`left_wt` = a sinusoid,
/// uniform along the edge: vertex values 1, derivatives 0), the port work equals H(end)
/// (start at rest) with the exact per-step balance.
#[test]
fn bell_clamped_port_base_excitation() {
    let dir = tmpdir("bell-clamped-port");
    let text = |left: &str, rest: &str| {
        format!(
            "[model]\nname = \"bell\"\n[plate]\ntheory = \"kirchhoff\"\nelement = \"bell\"\nlx = 1.0\nly = 0.5\nnx = 4\nny = 2\nyoungs_modulus = 70e9\npoisson_ratio = 0.3\ndensity = 2700.0\nthickness = 0.01\nedges = {{ left = \"{left}\" }}\n{rest}"
        )
    };
    let strong = dir.join("strong.toml");
    std::fs::write(&strong, text("clamped", "")).unwrap();
    let weak = dir.join("weak.toml");
    std::fs::write(&weak, text("clamped_port", "")).unwrap();
    let a = modes_json(&strong, &dir.join("a.json"));
    let b = modes_json(&weak, &dir.join("b.json"));
    for (x, y) in a.iter().zip(&b) {
        assert!((x - y).abs() < 1e-6 * x, "{x} vs {y}");
    }
    let driven = dir.join("driven.toml");
    std::fs::write(
        &driven,
        text(
            "clamped_port",
            "[[input]]\nport = \"left_wt\"\nvalue = \"1e-3 * sin(200 * t)\"\n[simulation]\nintegrator = \"midpoint\"\nt_end = 2e-2\ndt = 1e-4\n",
        ),
    )
    .unwrap();
    let s = run_summary(&driven, &dir.join("out"));
    assert_work_is_energy(&s, "");
}

/// A run from rest driven through its ports: the port work equals H(end) > 0 (1e-9
/// relative) and the per-step power balance holds to round-off (1e-10 relative); `what`
/// names the case in the messages.
fn assert_work_is_energy(s: &serde_json::Value, what: &str) {
    let (h_end, w) = (
        s["h_final"].as_f64().unwrap(),
        s["energy_supplied"].as_f64().unwrap(),
    );
    assert!(
        h_end > 0.0 && (h_end - w).abs() < 1e-9 * h_end,
        "{what}: {h_end} vs {w}"
    );
    assert!(s["power_balance_residual_relative"].as_f64().unwrap() < 1e-10);
}
