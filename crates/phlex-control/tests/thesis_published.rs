#![allow(non_snake_case)]
//! Reproductions of published numbers of thesis 002 (summary §5.2, §5.4).

use faer::Mat;
use phlex_control::linalg::from_rows as mat;
use phlex_control::model::modal::{modal_parameters, ModalTable};
use phlex_control::{FrameParams, StateSpace};

/// Lumped linearised frame (thesis §5.3, eqs. (5.60)–(5.66)): frequencies
/// 1.0996, 1.9846, 5.7902, 8.8248 Hz (independent recomputation in the
/// summary; the thesis prints 1.099, 1.985, 5.790, 8.825) to 1e-4 relative.
#[test]
fn lumped_frame_frequencies_and_shapes() {
    let sys = FrameParams::default().lumped_linear().unwrap();
    let modes = sys.undamped_modes().unwrap();
    let f = modes.freq_hz();
    eprintln!("lumped frame f = {f:?}");
    for (got, want) in f.iter().zip([1.0996, 1.9846, 5.7902, 8.8248]) {
        assert!((got - want).abs() < 1e-4 * want, "{got} vs {want}");
    }
    // Mode shapes normalised to x1 (thesis table after (5.66); the pendulum
    // entry of mode 1 is misprinted 237.095, the computation gives 2370.95).
    // Signs are the phases Θ ∈ {0, −π}. Tolerance: half a unit of the last
    // printed digit, except mode 3 x2 (printed 0.237, computed 0.2365) which
    // is checked against 0.236 of the recomputation.
    let published = [
        ([1.0, 2.712, 3.572, 2370.95], [1e-9, 5e-4, 5e-4, 5e-3]),
        ([1.0, 2.502, 3.069, -21.782], [1e-9, 5e-4, 5e-4, 2e-3]),
        ([1.0, 0.236, -0.401, 2.041], [1e-9, 1e-3, 5e-4, 5e-4]),
        ([1.0, -3.162, 1.176, -5.857], [1e-9, 5e-4, 5e-4, 5e-4]),
    ];
    for (k, (want, tol)) in published.iter().enumerate() {
        let r = modes.shape_ratios(k, 0).unwrap();
        eprintln!("mode {} shape {r:?}", k + 1);
        for i in 0..4 {
            assert!(
                (r[i] - want[i]).abs() <= tol[i],
                "mode {k} comp {i}: {} vs {}",
                r[i],
                want[i]
            );
        }
    }
    // Mode 1 is essentially the pendulum: √(m₄gL₄/(m₄L₄²+I))/2π = 1.1036 Hz.
    let p = FrameParams::default();
    let fp =
        (p.m4 * p.g * p.L4 / (p.m4 * p.L4 * p.L4 + p.Izz)).sqrt() / (2.0 * std::f64::consts::PI);
    assert!((fp - 1.1036).abs() < 1e-4);
}

/// Story stiffnesses k₁ = k₃ = 1190.93, k₂ = 660.08 N/m.
#[test]
fn story_stiffness() {
    let k = FrameParams::default().stiffness();
    assert!((k[0] - 1190.93).abs() < 0.01 && (k[2] - 1190.93).abs() < 0.01);
    assert!((k[1] - 660.08).abs() < 0.01);
}

fn era_okid_realisation() -> StateSpace {
    let A = mat(
        6,
        6,
        &[
            0.4374, 0.8852, -0.0220, -0.0415, -0.0017, -0.0002, -0.9029, 0.4310, -0.0875, 0.0191,
            -0.0040, 0.0010, 0.0500, -0.0111, -0.1490, 0.9742, -0.0041, -0.0021, 0.0621, -0.0617,
            -0.9841, -0.1538, -0.0067, 0.0009, -0.0146, -0.0241, -0.0015, -0.0312, 0.9230, 0.3530,
            -0.0148, -0.0340, 0.0100, -0.0425, -0.3777, 0.9070,
        ],
    );
    let B = mat(6, 1, &[-0.0946, -0.0203, -0.1133, 0.0030, -0.0885, -0.1079]);
    let C = mat(
        3,
        6,
        &[
            -26.355, 7.736, -5.170, -1.132, -0.677, 0.162, -4.217, 2.626, 14.217, 1.220, -1.340,
            0.307, 11.219, -4.228, -5.732, -0.055, -1.549, 0.470,
        ],
    );
    let D = mat(3, 1, &[-2.574, -0.208, 0.003]);
    StateSpace::new(A, B, C, D, Some(0.03125)).unwrap()
}

fn n4sid_realisation() -> StateSpace {
    let A = mat(
        6,
        6,
        &[
            0.4184, 0.8019, 0.3995, 0.1444, 0.0153, -0.0073, -0.6853, 0.2661, 0.3680, -0.5466,
            -0.0164, 0.0120, -0.5789, 0.1414, 0.0405, 0.7964, 0.0423, -0.0117, -0.1367, 0.5145,
            -0.8260, -0.1599, 0.0415, 0.0040, 0.0117, -0.0324, 0.0257, -0.0387, 0.9263, -0.3689,
            -0.0001, -0.0059, 0.0485, -0.0300, 0.3585, 0.8969,
        ],
    );
    let B = mat(6, 1, &[0.0176, 0.0521, -0.0265, -0.0352, 0.0867, -0.0552]);
    let C = mat(
        3,
        6,
        &[
            56.6682, 39.7860, 6.4378, -6.8943, 0.7703, -0.1882, 12.0417, -4.2486, 17.2738, 20.3517,
            1.5212, -0.4419, -26.3375, -11.1040, -11.0976, -8.1824, 3.1637, -0.1651,
        ],
    );
    StateSpace::new(A, B, C, Mat::zeros(3, 1), Some(0.03125)).unwrap()
}

/// Modal table of the published ERA/DC-OKID realisation (thesis §5.5,
/// Table of eq. (5.19x)): f = 1.934, 5.690, 8.793 Hz; ξ = 0.0395, 0.0030, 0.0042.
/// Â is printed to 4 decimals; a ±5e-5 perturbation of its entries moves ξ of
/// mode 1 by up to ~1e-4, which is why the summary's recomputation gives
/// 0.0394: frequencies are checked to 1e-3 Hz (printed digits), damping to
/// 1.5e-4 absolute.
#[test]
fn era_dc_okid_published_modes() {
    let t = modal_parameters(&era_okid_realisation(), 0).unwrap();
    eprintln!("{t}");
    assert_eq!(t.frequencies().len(), 3);
    // Mode-shape magnitudes ρ (printed [1, 2.503, 2.851], [1, 0.1492, 0.4221],
    // [1, 3.443, 1.476]); Ĉ is printed to 3 decimals (~1e-3 relative on the
    // ratios), tolerance 1 %.
    check_published(
        &t,
        [(1.934, 0.0395), (5.690, 0.0030), (8.793, 0.0042)],
        [
            [1.0, 2.503, 2.851],
            [1.0, 0.1492, 0.4221],
            [1.0, 3.443, 1.476],
        ],
    );
    // Phases Θ: mode 2 sensor 3 ≈ −3.170 ≡ 3.113 (wrapped), mode 3 sensor 2 ≈ −3.144.
    let th = |k: usize, i: usize| t.modes[k].phase[i];
    assert!((phlex_control::model::modal::wrap_angle(th(1, 2) - (-3.170))).abs() < 0.02);
    assert!((phlex_control::model::modal::wrap_angle(th(2, 1) - (-3.144))).abs() < 0.02);
    assert!((th(0, 2) - (-0.1053)).abs() < 0.02);
}

/// A published modal table: frequencies to 1e-3 Hz and damping ratios to
/// 1.5e-4 (printed digits) per mode `(f, ξ)`, mode-shape magnitudes `ρ` to
/// 1 % relative.
fn check_published(t: &ModalTable, modes: [(f64, f64); 3], rho: [[f64; 3]; 3]) {
    let (f, xi) = (t.frequencies(), t.dampings());
    for (k, (fw, xw)) in modes.iter().enumerate() {
        assert!((f[k] - fw).abs() < 1e-3, "f{k} {} vs {fw}", f[k]);
        assert!((xi[k] - xw).abs() < 1.5e-4, "xi{k} {} vs {xw}", xi[k]);
        for (i, r) in rho[k].iter().enumerate() {
            let g = t.modes[k].magnitude[i];
            assert!((g - r).abs() < 1e-2 * r, "rho[{k}][{i}] {g}");
        }
    }
}

/// N4SID realisation (thesis §5.5): f = 1.936, 5.697, 8.793 Hz; ξ = 0.0464, 0.0028, 0.0042.
#[test]
fn n4sid_published_modes() {
    let t = modal_parameters(&n4sid_realisation(), 0).unwrap();
    eprintln!("{t}");
    check_published(
        &t,
        [(1.936, 0.0464), (5.697, 0.0028), (8.793, 0.0042)],
        [
            [1.0, 2.519, 2.820],
            [1.0, 0.1461, 0.4241],
            [1.0, 3.436, 1.472],
        ],
    );
}

/// Rayleigh least-squares fit (thesis eq. (3.85)) from the published modal
/// tables. ERA/DC-OKID: published α̂ = 0.9751 s⁻¹, β̂ = −2.8815e-4 s; N4SID:
/// α̂ = 1.1494, β̂ = −3.6937e-4. The tables print ξ with two significant
/// digits (e.g. 0.0030 ± 5e-5, 1.7 %), so the fit from the printed values
/// agrees to 1e-3 relative in α and 1 % in β.
#[test]
fn rayleigh_fit_published() {
    use phlex_control::identify::rayleigh::fit_rayleigh;
    let (a, b) = fit_rayleigh(&[1.934, 5.690, 8.793], &[0.0395, 0.0030, 0.0042]).unwrap();
    eprintln!("ERA/DC-OKID fit: α = {a}, β = {b}");
    assert!((a - 0.9751).abs() < 1e-3 * 0.9751);
    assert!((b + 2.8815e-4).abs() < 1e-2 * 2.8815e-4);
    let (a, b) = fit_rayleigh(&[1.936, 5.697, 8.793], &[0.0464, 0.0028, 0.0042]).unwrap();
    eprintln!("N4SID fit: α = {a}, β = {b}");
    assert!((a - 1.1494).abs() < 1e-3 * 1.1494);
    assert!((b + 3.6937e-4).abs() < 1e-2 * 3.6937e-4);
}

/// R̂ = α̂M̂ + β̂K̂ (thesis §5.5) from the published M̂, K̂ and (α̂, β̂):
/// reproduces the printed R̂ to ±5e-5: the inputs M̂ are printed to 4
/// decimals (±5e-5 × α̂ ≈ ±5e-5 on R̂), so the fifth digit of the printed
/// 0.22356 cannot be checked (measured 0.223572).
#[test]
fn proportional_damping_published() {
    use phlex_control::model::mdof::rayleigh_damping;
    let M = mat(
        3,
        3,
        &[
            0.3871, -0.0156, 0.0011, -0.0156, 0.2621, -0.0323, 0.0011, -0.0323, 0.3790,
        ],
    );
    let K = mat(
        3,
        3,
        &[
            534.061, -221.931, 25.696, -221.931, 614.564, -432.792, 25.696, -432.792, 422.005,
        ],
    );
    let R = rayleigh_damping(M.as_ref(), K.as_ref(), 0.9751, -2.8815e-4);
    let want = [
        [0.22356, 0.0487, -0.0063],
        [0.0487, 0.0785, 0.0932],
        [-0.0063, 0.0932, 0.2480],
    ];
    for i in 0..3 {
        for j in 0..3 {
            let tol = 5e-5;
            assert!(
                (R[(i, j)] - want[i][j]).abs() <= tol,
                "R[{i}{j}] = {}",
                R[(i, j)]
            );
        }
    }
    // N4SID set: R̂ = [0.2597 0.0832 0.0098; 0.0832 0.1013 0.1687; 0.0098 0.1687 0.3724]
    let M = mat(
        3,
        3,
        &[
            0.4089, -0.0132, 0.0191, -0.0132, 0.3110, -0.0004, 0.0191, -0.0004, 0.4664,
        ],
    );
    let K = mat(
        3,
        3,
        &[
            569.1692, -266.3515, 33.1538, -266.3515, 693.3727, -458.0419, 33.1538, -458.0419,
            442.9695,
        ],
    );
    let R = rayleigh_damping(M.as_ref(), K.as_ref(), 1.1494, -3.6937e-4);
    let want = [
        [0.2597, 0.0832, 0.0098],
        [0.0832, 0.1013, 0.1687],
        [0.0098, 0.1687, 0.3724],
    ];
    for i in 0..3 {
        for j in 0..3 {
            // input rounding α̂·5e-5 ≈ 5.7e-5 plus output rounding 5e-5
            // (measured 0.259756 vs printed 0.2597)
            assert!(
                (R[(i, j)] - want[i][j]).abs() <= 1.1e-4,
                "R[{i}{j}] = {}",
                R[(i, j)]
            );
        }
    }
    // undamped modes of (K̂, M̂) of the ERA set: 1.930, 5.704, 8.860 Hz (summary recomputation)
    let M = mat(
        3,
        3,
        &[
            0.3871, -0.0156, 0.0011, -0.0156, 0.2621, -0.0323, 0.0011, -0.0323, 0.3790,
        ],
    );
    let K = mat(
        3,
        3,
        &[
            534.061, -221.931, 25.696, -221.931, 614.564, -432.792, 25.696, -432.792, 422.005,
        ],
    );
    let f = phlex_control::model::mdof::undamped_modes(M.as_ref(), K.as_ref())
        .unwrap()
        .freq_hz();
    for (g, w) in f.iter().zip([1.930, 5.704, 8.860]) {
        assert!((g - w).abs() < 1e-3, "{g} vs {w}");
    }
}
