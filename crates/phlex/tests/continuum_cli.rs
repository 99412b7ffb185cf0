//! End-to-end tests of the elasticity (`[elasticity]`, 2D and 3D) and acoustics
//! (`[acoustics]`) model files: eigenfrequencies against closed forms, the exact power
//! balance of `phlex run`, VTK output, and clear errors with exit code 2.
mod common;

use std::path::{Path, PathBuf};

use common::root;

fn tmpdir(name: &str) -> PathBuf {
    common::created_dir("phlex-continuum", name)
}

fn modes(model: &Path, dir: &Path) -> Vec<f64> {
    common::modes_omegas(model, &[], &dir.join("modes.json"))
}

fn run(model: &Path, dir: &Path) -> serde_json::Value {
    let o = common::run(model, dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&std::fs::read(dir.join("summary.json")).unwrap()).unwrap()
}

/// Fixed–free rod: with ν = 0 and rollers on the long sides the longitudinal field is an
/// exact solution, ω_n = (2n − 1)π c/(2L), c = √(E/ρ). CG2 on 40 (2D) and 10 (3D) cells
/// along the bar: the dispersion error of quadratic elements at these resolutions is
/// below 1e-5 for the first mode and 1e-4 for the second and third.
#[test]
fn elastic_bars_have_the_rod_frequencies() {
    let c = (2.1e11f64 / 7800.0).sqrt();
    let w = |n: usize| (2 * n - 1) as f64 * std::f64::consts::PI * c / 2.0;
    for (file, n) in [("elastic_bar_2d", 3), ("elastic_bar_3d", 2)] {
        let dir = tmpdir(file);
        let om = modes(
            &root().join(format!("examples/continuum/{file}.toml")),
            &dir,
        );
        assert_eq!(om.len(), n, "{file}: {om:?}");
        for (k, o) in om.iter().enumerate() {
            let rel = (o / w(k + 1) - 1.0).abs();
            let tol = if k == 0 { 1e-5 } else { 1e-4 };
            assert!(
                rel < tol,
                "{file} mode {}: {o} vs {} ({rel:.2e})",
                k + 1,
                w(k + 1)
            );
        }
    }
}

/// `phlex run` of the examples: the midpoint rule's discrete power balance holds to
/// round-off (relative residual < 1e-10), the traction pulse's work is stored in the bar,
/// the 3D bar released in its first mode keeps its energy (drift < 1e-10), the duct's
/// impedance end dissipates what the velocity port supplied minus what is stored; VTK
/// collections are written.
#[test]
fn runs_balance_energy_and_write_vtk() {
    for (file, kind) in [
        ("elastic_bar_2d", "elasticity"),
        ("elastic_bar_3d", "elasticity"),
        ("acoustic_duct", "acoustics"),
    ] {
        let dir = tmpdir(&format!("run-{file}"));
        let s = run(
            &root().join(format!("examples/continuum/{file}.toml")),
            &dir,
        );
        let res = s["power_balance_residual_relative"].as_f64().unwrap();
        assert!(res < 1e-10, "{file}: power-balance residual {res:e}");
        let (h0, h1) = (
            s["h_initial"].as_f64().unwrap(),
            s["h_final"].as_f64().unwrap(),
        );
        let (w, d) = (
            s["energy_supplied"].as_f64().unwrap(),
            s["energy_dissipated"].as_f64().unwrap(),
        );
        assert!(
            (h1 - h0 - w + d).abs() < 1e-9 * (h0.abs() + w.abs() + d.abs()),
            "{file}: {h0} {h1} {w} {d}"
        );
        match file {
            "elastic_bar_2d" => assert!(w > 0.0 && d == 0.0),
            "elastic_bar_3d" => assert!(s["energy_drift"].as_f64().unwrap() < 1e-10),
            _ => assert!(
                w > 0.0 && d > 0.5 * w,
                "duct: most of the pulse leaves: {w} {d}"
            ),
        }
        let pvd = std::fs::read_to_string(dir.join(format!("{kind}.pvd"))).unwrap();
        assert!(pvd.contains(&format!("fields/{kind}_0000.vtu")));
        let vtu = std::fs::read_to_string(dir.join(format!("fields/{kind}_0001.vtu"))).unwrap();
        assert!(vtu.contains("UnstructuredGrid"));
        let csv = std::fs::read_to_string(dir.join("timeseries.csv")).unwrap();
        assert!(csv.lines().next().unwrap().starts_with("t,H,"));
    }
}

const DUCT: &str = r#"
[model]
name = "duct"

[acoustics]
GEOMETRY
density = 1.225
sound_speed = 340.0
lx = 1.0
ly = 0.2
nx = 80
ny = 4
"#;

/// Rigid duct: ω_n = nπc/L (n = 1, 2, 3) below the first transverse mode πc/0.2. The
/// axisymmetric form (a rigid cylinder of radius 0.2, y = r) has the same axial modes.
/// GradGrad CG1 × DG0 on h = L/80: relative dispersion error ~ (ωh/c)²/24 ≈ 3e-5·n².
#[test]
fn rigid_duct_and_cylinder_have_the_axial_modes() {
    let c = 340.0;
    for geometry in ["", "geometry = \"axisymmetric\""] {
        let dir = tmpdir(&format!("duct-{}", geometry.len()));
        let p = dir.join("duct.toml");
        std::fs::write(
            &p,
            DUCT.replace("GEOMETRY", geometry) + "[modes]\ncount = 3\n",
        )
        .unwrap();
        let om = modes(&p, &dir);
        for (k, o) in om.iter().enumerate() {
            let exact = (k + 1) as f64 * std::f64::consts::PI * c;
            let rel = (o / exact - 1.0).abs();
            assert!(
                rel < 5e-4 * ((k + 1) * (k + 1)) as f64,
                "{geometry} mode {}: {o} vs {exact}",
                k + 1
            );
        }
    }
}

fn expect_error(text: &str, needle: &str) {
    common::check_error("phlex-continuum", text, needle);
}

/// Bad input names the key: unknown boundary tag, a 3D key in a 2D model, an unknown
/// condition, a probe outside the body, an unknown initial field, bad impedance.
#[test]
fn bad_continuum_models_are_rejected_clearly() {
    let bar = |extra: &str| {
        format!(
            "[model]\nname = \"b\"\n[elasticity]\ndim = 2\nlx = 1.0\nly = 0.1\nnx = 4\nny = 1\nyoungs_modulus = 1e9\npoisson_ratio = 0.3\ndensity = 1000.0\n{extra}"
        )
    };
    expect_error(
        &bar("boundaries = { lft = \"clamped\" }\n"),
        "unknown boundary 'lft' (tags: bottom, left, right, top)",
    );
    expect_error(&bar("lz = 1.0\n"), "elasticity.lz is a 3D key");
    expect_error(
        &bar("boundaries = { left = \"glued\" }\n"),
        "elasticity.boundaries.left = 'glued'",
    );
    expect_error(
        &bar("[output]\nprobes = [{ name = \"far\", field = \"v_y\", x = 5.0, y = 0.0 }]\n"),
        "output.probes",
    );
    expect_error(
        &bar("[initial]\nv_z = \"1\"\n"),
        "initial.v_z: unknown field; use v_x, v_y",
    );
    expect_error(
        &bar("").replace("dim = 2", "dim = 3"),
        "elasticity.lz is missing",
    );
    expect_error(
        &(DUCT.replace("GEOMETRY", "") + "boundaries = { right = { impedance = -1.0 } }\n"),
        "impedance must be > 0",
    );
    expect_error(
        &DUCT.replace("GEOMETRY", "causality = \"curl\""),
        "acoustics.causality = 'curl'",
    );
}

/// Shallow water tank (thesis Table 8.2 data on 8 rings, 1.5 s): the Lyapunov functional
/// is non-increasing once the damping injection is on (t ≥ 0.5 s), the discrete energy
/// balance holds to round-off (relative residual < 1e-10), and `phlex modes` gives the
/// sloshing frequencies of the linearised tank within 1 % of Bessel's ω = j'₁₁√(gh)/R,
/// j'₁₁ = 1.8412 (double, cos θ and sin θ) and j'₂₁ = 3.0542 (the 20-ring example).
#[test]
fn shallow_water_tank_damps_and_sloshes() {
    let text = std::fs::read_to_string(root().join("examples/continuum/shallow_water_tank.toml"))
        .unwrap()
        .replace("n_radial = 20", "n_radial = 8")
        .replace("t_end = 3.0", "t_end = 1.5")
        .replace("vtk_every = 20", "vtk_every = 100");
    let dir = tmpdir("sw");
    let p = dir.join("tank.toml");
    std::fs::write(&p, text).unwrap();
    let s = run(&p, &dir.join("out"));
    assert!(s["power_balance_residual_relative"].as_f64().unwrap() < 1e-10);
    let csv = std::fs::read_to_string(dir.join("out/timeseries.csv")).unwrap();
    let rows: Vec<Vec<f64>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    let mut last = f64::INFINITY;
    for r in rows.iter().filter(|r| r[0] >= 0.5) {
        assert!(r[2] <= last * (1.0 + 1e-12), "V increased at t = {}", r[0]);
        last = r[2];
    }
    assert!(
        last < 0.5 * rows[0][2],
        "V must drop: {} -> {last}",
        rows[0][2]
    );
    assert!(dir.join("out/shallow_water.pvd").exists());
    let om = modes(
        &root().join("examples/continuum/shallow_water_tank.toml"),
        &dir,
    );
    let c = (10.0f64).sqrt();
    for (o, j) in om.iter().zip([1.8412, 1.8412, 3.0542, 3.0542]) {
        assert!((o / (j * c) - 1.0).abs() < 1e-2, "{o} vs {}", j * c);
    }
}

/// 3D elasticity on a Gmsh tetrahedral mesh (`examples/meshes/unit_cube_2.msh`: the unit
/// cube, 2 × 2 × 2 hexahedra split as `Mesh3d::box_mesh` splits them, physical surfaces
/// xmin … zmax): the lowest frequencies equal those of the structured box model with the
/// same supports to 1e-9 (same nodes and cells, different numbering).
#[test]
fn elasticity_3d_gmsh_equals_box() {
    let dir = tmpdir("gmsh3d");
    std::fs::copy(
        root().join("examples/meshes/unit_cube_2.msh"),
        dir.join("cube.msh"),
    )
    .unwrap();
    let body = |mesh: &str| {
        format!(
            "[model]\nname = \"cube\"\n[elasticity]\ndim = 3\n{mesh}\ndegree = 2\nyoungs_modulus = 1e9\npoisson_ratio = 0.25\ndensity = 1000.0\nboundaries = {{ xmin = \"clamped\", ymin = \"fixed_y\" }}\n"
        )
    };
    let a = dir.join("gmsh.toml");
    std::fs::write(&a, body("mesh = \"cube.msh\"")).unwrap();
    let b = dir.join("box.toml");
    std::fs::write(
        &b,
        body("lx = 1.0\nly = 1.0\nlz = 1.0\nnx = 2\nny = 2\nnz = 2"),
    )
    .unwrap();
    let (wa, wb) = (modes(&a, &dir), modes(&b, &dir));
    assert_eq!(wa.len(), wb.len());
    for (x, y) in wa.iter().zip(&wb) {
        assert!((x / y - 1.0).abs() < 1e-9, "{x} vs {y}");
    }
}

/// Plane-strain thermoelasticity (`[elasticity.thermal]`, example strip): the two lowest
/// eigenvalues against the exact roots of the thermoelastic dispersion cubic
/// λ³ + kκ²λ² + (s + C_β²)κ²λ + s k κ⁴ = 0 (non-dimensional data, ρ = C = T0 = 1) for
/// κ = π/2, 3π/2 — the separable fixed–free solution with an isothermal free end —
/// found here by Newton's method from the undamped root i κ √s: frequency within 1e-4 and
/// damping ratio within 1e-3 relative (measured 1e-7 / 1e-5 and 1e-5 / 3e-4, CG2 on 12
/// cells); `phlex run` dissipates exactly what conduction removes (residual < 1e-10).
#[test]
fn thermoelastic_strip_matches_the_dispersion_relation() {
    let model = root().join("examples/continuum/thermoelastic_strip.toml");
    let dir = tmpdir("thermo");
    let json = dir.join("modes.json");
    let v = common::modes_json(&model, &[], &json);
    let modes = v["modes"].as_array().unwrap();
    // plane strain, E = 1, ν = 0.25: λ_L = μ = 0.4, s = 1.2, C_β = β(3λ_L + 2μ) = 0.4
    let (s, k, cb) = (1.2f64, 0.35f64, 0.4f64);
    for (n, m) in modes.iter().take(2).enumerate() {
        let kap = (2 * n + 1) as f64 * std::f64::consts::FRAC_PI_2;
        let c = [
            k * kap * kap,
            (s + cb * cb) * kap * kap,
            s * k * kap.powi(4),
        ];
        let (mut re, mut im) = (0.0f64, kap * s.sqrt());
        for _ in 0..100 {
            // p(λ) = λ³ + c0 λ² + c1 λ + c2, p'(λ) = 3λ² + 2 c0 λ + c1 (complex arithmetic)
            let l2 = (re * re - im * im, 2.0 * re * im);
            let l3 = (l2.0 * re - l2.1 * im, l2.0 * im + l2.1 * re);
            let p = (
                l3.0 + c[0] * l2.0 + c[1] * re + c[2],
                l3.1 + c[0] * l2.1 + c[1] * im,
            );
            let dp = (
                3.0 * l2.0 + 2.0 * c[0] * re + c[1],
                3.0 * l2.1 + 2.0 * c[0] * im,
            );
            let den = dp.0 * dp.0 + dp.1 * dp.1;
            re -= (p.0 * dp.0 + p.1 * dp.1) / den;
            im -= (p.1 * dp.0 - p.0 * dp.1) / den;
        }
        let zeta = -re / re.hypot(im);
        let (w, z) = (
            m["omega"].as_f64().unwrap(),
            m["damping_ratio"].as_f64().unwrap(),
        );
        assert!((w / im - 1.0).abs() < 1e-4, "mode {}: ω {w} vs {im}", n + 1);
        assert!(
            (z / zeta - 1.0).abs() < 1e-3,
            "mode {}: ζ {z} vs {zeta}",
            n + 1
        );
    }
    let s = run(&model, &dir.join("out"));
    assert!(s["power_balance_residual_relative"].as_f64().unwrap() < 1e-10);
    assert!(s["energy_dissipated"].as_f64().unwrap() > 0.0);
}
