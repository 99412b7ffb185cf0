//! Mindlin plate, AFW discretization (thesis 004 §7.2.1.2, §7.4.2; summary §5.1.2):
//! convergence against the manufactured dynamic solution of Tables B.9–B.12, structure and
//! energy conservation.
//!
//! Manufactured solution (summary §5.1.2, the [VERIFIED] complete form): clamped unit
//! square, E = 1 Pa, ρ = 1 kg/m³, ν = 0.3, K_sh = 5/6, b = 0.1 m,
//! w_d = w_s sin t, θ_d = θ_s sin t, load f_d = (f_s − ρb w_s) sin t, τ_d = −I_θ θ_s sin t.
//! Exact co-energies: e_w = w_s cos t, e_θ = θ_s cos t, E_κ = 𝒟_b Grad θ_s sin t,
//! e_γ = K_sh G b (grad w_s − θ_s) sin t, E_r = skw(grad θ_s) sin t.
//! Thesis setup (as in the Kirchhoff tests that reproduce Tables B.16–B.22): Crank–Nicolson
//! (implicit midpoint), Δt = h/10, t_f = 1 s, L∞(L²) = maximum over all time levels
//! including t = 0, initial e_w, e_θ = nodal interpolants, E_κ = e_γ = 0, load amplitude
//! averaged over each step by the trapezoidal rule, Firedrake's default "left" diagonal.
mod common;

use phlex_core::LinearPhSystem;
use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::models::plate::{AfwField, MindlinAfw, MindlinParams};
use phlex_solve::fixed_step::FixedStepParams;
use phlex_solve::midpoint::{LinearMidpoint, MidpointParams};
use phlex_solve::signal::{InputFn, Signal};
use std::sync::Arc;
use std::time::Instant;

// ---------------------------------------------------------------- manufactured solution

/// Polynomial in one variable, ascending coefficients.
#[derive(Clone, Debug)]
struct P1(Vec<f64>);

impl P1 {
    fn mul(&self, o: &P1) -> P1 {
        let mut c = vec![0.0; self.0.len() + o.0.len() - 1];
        for (i, a) in self.0.iter().enumerate() {
            for (j, b) in o.0.iter().enumerate() {
                c[i + j] += a * b;
            }
        }
        P1(c)
    }
    fn pow(&self, n: usize) -> P1 {
        (0..n).fold(P1(vec![1.0]), |acc, _| acc.mul(self))
    }
    fn d(&self) -> P1 {
        if self.0.len() <= 1 {
            return P1(vec![0.0]);
        }
        P1(self
            .0
            .iter()
            .enumerate()
            .skip(1)
            .map(|(i, c)| i as f64 * c)
            .collect())
    }
    fn at(&self, x: f64) -> f64 {
        self.0.iter().rev().fold(0.0, |acc, c| acc * x + c)
    }
}

/// Σ c · p(x) q(y).
#[derive(Clone, Debug)]
struct Sep(Vec<(f64, P1, P1)>);

impl Sep {
    fn at(&self, x: [f64; 2]) -> f64 {
        self.0
            .iter()
            .map(|(c, p, q)| c * p.at(x[0]) * q.at(x[1]))
            .sum()
    }
    fn dx(&self) -> Sep {
        Sep(self
            .0
            .iter()
            .map(|(c, p, q)| (*c, p.d(), q.clone()))
            .collect())
    }
    fn dy(&self) -> Sep {
        Sep(self
            .0
            .iter()
            .map(|(c, p, q)| (*c, p.clone(), q.d()))
            .collect())
    }
}

/// The Table 7.2 material: $E$ = 1 Pa, $\rho$ = 1 kg/m³, $\nu$ = 0.3, $K_{sh}$ = 5/6,
/// $b$ = 0.1 m.
fn params() -> MindlinParams {
    phlex_fem::models::plate::mindlin::benchmarks::thesis_params()
}

/// The static solution and its derivatives (exact polynomial arithmetic).
struct Manufactured {
    p: MindlinParams,
    w: Sep,
    wx: Sep,
    wy: Sep,
    tx: Sep,
    ty: Sep,
    tx_x: Sep,
    tx_y: Sep,
    ty_x: Sep,
    ty_y: Sep,
    lap_w: Sep,
}

impl Manufactured {
    fn new() -> Self {
        let p = params();
        let b = p.h;
        let x = P1(vec![0.0, 1.0]);
        let xm1 = P1(vec![-1.0, 1.0]);
        let q = x.mul(&xm1); // x(x−1)
        let p3 = q.pow(3); // x³(x−1)³
        let p2 = q.pow(2).mul(&P1(vec![-1.0, 2.0])); // x²(x−1)²(2x−1)
        let p1 = q.mul(&P1(vec![1.0, -5.0, 5.0])); // x(x−1)(5x²−5x+1)
        let c = 2.0 * b * b / (5.0 * (1.0 - p.nu));
        let w = Sep(vec![
            (1.0 / 3.0, p3.clone(), p3.clone()),
            (-c, p1.clone(), p3.clone()),
            (-c, p3.clone(), p1.clone()),
        ]);
        let tx = Sep(vec![(1.0, p2.clone(), p3.clone())]);
        let ty = Sep(vec![(1.0, p3.clone(), p2.clone())]);
        let lap = Sep(w.dx().dx().0.into_iter().chain(w.dy().dy().0).collect());
        Self {
            p,
            wx: w.dx(),
            wy: w.dy(),
            w,
            tx_x: tx.dx(),
            tx_y: tx.dy(),
            ty_x: ty.dx(),
            ty_y: ty.dy(),
            tx,
            ty,
            lap_w: lap,
        }
    }
    fn shear_stiffness(&self) -> f64 {
        self.p.k_sh * self.p.shear_modulus() * self.p.h
    }
    fn w_s(&self, x: [f64; 2]) -> f64 {
        self.w.at(x)
    }
    fn theta_s(&self, x: [f64; 2]) -> [f64; 2] {
        [self.tx.at(x), self.ty.at(x)]
    }
    /// 𝒟_b Grad θ_s, row-major 2 × 2.
    fn moments(&self, x: [f64; 2]) -> [f64; 4] {
        let db = self.p.bending_stiffness();
        let nu = self.p.nu;
        let (exx, eyy) = (self.tx_x.at(x), self.ty_y.at(x));
        let exy = 0.5 * (self.tx_y.at(x) + self.ty_x.at(x));
        let tr = exx + eyy;
        [
            db * ((1.0 - nu) * exx + nu * tr),
            db * (1.0 - nu) * exy,
            db * (1.0 - nu) * exy,
            db * ((1.0 - nu) * eyy + nu * tr),
        ]
    }
    /// K_sh G b (grad w_s − θ_s).
    fn shear(&self, x: [f64; 2]) -> [f64; 2] {
        let k = self.shear_stiffness();
        let t = self.theta_s(x);
        [k * (self.wx.at(x) - t[0]), k * (self.wy.at(x) - t[1])]
    }
    /// Scalar ρ of skw(grad θ_s) = ρ [[0, 1], [−1, 0]]: ρ = ½(∂_y θ_x − ∂_x θ_y).
    fn skew(&self, x: [f64; 2]) -> f64 {
        0.5 * (self.tx_y.at(x) - self.ty_x.at(x))
    }
    /// Static load f_s = −div q_s.
    fn f_s(&self, x: [f64; 2]) -> f64 {
        -self.shear_stiffness() * (self.lap_w.at(x) - self.tx_x.at(x) - self.ty_y.at(x))
    }
}

/// Thesis Table B.9–B.11 row: 1/h and L∞(L²) errors of e_w, e_θ, E_κ, e_γ.
type Row = (usize, [f64; 4]);

const B9: [Row; 4] = [
    (4, [1.05e-05, 7.96e-05, 3.75e-08, 6.54e-07]),
    (8, [5.33e-06, 3.53e-05, 1.15e-08, 3.73e-07]),
    (16, [2.68e-06, 1.75e-05, 3.02e-09, 1.92e-07]),
    (32, [1.34e-06, 8.80e-06, 7.71e-10, 9.72e-08]),
];
const B10: [Row; 4] = [
    (4, [8.43e-06, 8.10e-05, 1.80e-08, 2.68e-07]),
    (8, [2.28e-06, 1.82e-05, 4.79e-09, 6.99e-08]),
    (16, [5.85e-07, 4.41e-06, 1.22e-09, 1.75e-08]),
    (32, [1.47e-07, 1.12e-06, 3.03e-10, 4.47e-09]),
];
const B11: [Row; 4] = [
    (2, [1.11e-06, 1.63e-05, 2.14e-09, 4.63e-08]),
    (4, [1.63e-07, 2.56e-06, 2.61e-10, 6.96e-09]),
    (8, [2.13e-08, 2.63e-07, 2.42e-11, 9.90e-10]),
    (16, [2.93e-09, 4.24e-08, 8.99e-12, 3.64e-10]),
];
/// Table B.12, E_r errors for k = 1, 2, 3 at 1/h = 4, 8, 16, 32.
const B12: [[f64; 4]; 3] = [
    [2.45e-09, 4.98e-10, 1.26e-10, 3.19e-11],
    [1.07e-09, 2.48e-10, 6.11e-11, 1.52e-11],
    [1.57e-09, 3.52e-10, 8.67e-11, 2.16e-11],
];

fn thesis_table(k: usize) -> &'static [Row] {
    match k {
        1 => &B9,
        2 => &B10,
        _ => &B11,
    }
}

const NAMES: [&str; 5] = ["e_w", "e_theta", "E_kappa", "e_gamma", "E_r"];

/// L∞(L²) errors [e_w, e_θ, E_κ, e_γ, E_r] of AFW degree `k` on the `n × n` mesh.
fn afw_errors(k: usize, n: usize, dt: f64) -> [f64; 5] {
    let ms = Arc::new(Manufactured::new());
    let p = ms.p;
    let mesh = Mesh2d::unit_square(n, Diagonal::Left).unwrap();
    let i_theta = p.rho * p.h.powi(3) / 12.0;
    let m2 = ms.clone();
    let model = MindlinAfw::new(p, &mesh, k)
        .unwrap()
        .load(
            "load",
            Arc::new(move |x| {
                let t = m2.theta_s(x);
                (
                    m2.f_s(x) - p.rho * p.h * m2.w_s(x),
                    [-i_theta * t[0], -i_theta * t[1]],
                )
            }),
        )
        .build()
        .unwrap();
    // integrate the equilibrated copy e = D ẽ (MindlinAfwModel::equilibrated_system: the
    // unscaled midpoint matrix fails the LU probe check for k = 2 on 32 × 32, k = 3 on 16 × 16)
    let (sys, d) = model.equilibrated_system().unwrap();
    let sys = &sys;
    let qd = 8;
    let samplers: Vec<_> = [
        AfwField::Velocity,
        AfwField::RotationRate,
        AfwField::Moments,
        AfwField::ShearForces,
        AfwField::RotationMultiplier,
    ]
    .iter()
    .map(|f| model.sampler(*f, qd).unwrap())
    .collect();
    let exact: Vec<Vec<f64>> = vec![
        samplers[0].sample(&|x, o| o[0] = ms.w_s(x)),
        samplers[1].sample(&|x, o| o.copy_from_slice(&ms.theta_s(x))),
        samplers[2].sample(&|x, o| o.copy_from_slice(&ms.moments(x))),
        samplers[3].sample(&|x, o| o.copy_from_slice(&ms.shear(x))),
        samplers[4].sample(&|x, o| o[0] = ms.skew(x)),
    ];
    let mut work: Vec<Vec<f64>> = samplers.iter().map(|s| vec![0.0; s.P.nrows()]).collect();
    let e0: Vec<f64> = model
        .interpolate_state(&|x| ms.w_s(x), &|x| ms.theta_s(x))
        .iter()
        .zip(&d)
        .map(|(e, d)| e / d)
        .collect();
    let mut e_phys = vec![0.0; sys.n_states()];
    let c = (0.5 * dt).cos();
    let input = InputFn::new(vec![Signal::from_fn(move |t: f64| c * t.sin())]);
    let mut cn = common::integrate::midpoint(sys, input, 1.0, dt);
    // E_r = ∫ r dt accumulated from the stored midpoint rates (Crank–Nicolson iterate)
    let r_range = sys.block_range("r").unwrap();
    let mut er = vec![0.0; sys.n_states()];
    let mut max = [0.0f64; 5];
    let mut first = true;
    cn.run(&e0, &mut |t: f64, es: &[f64]| {
        for ((p, s), d) in e_phys.iter_mut().zip(es).zip(&d) {
            *p = s * d;
        }
        let e = &e_phys[..];
        if !first {
            for i in r_range.clone() {
                er[i] += dt * e[i];
            }
        }
        first = false;
        let (ct, st) = (t.cos(), t.sin());
        let scales = [ct, ct, st, st, st];
        for f in 0..5 {
            let v = if f == 4 { &er } else { e };
            let d = samplers[f].distance(v, &exact[f], scales[f], &mut work[f]);
            max[f] = max[f].max(d);
        }
    })
    .unwrap();
    max
}

// ---------------------------------------------------------------- tests

/// The manufactured solution is right: f_s = −div q_s equals the summary's corrected closed
/// form b³ f̃_s, Div M_s + q_s = 0 (moment equilibrium), and w_s = θ_s = 0 on the boundary
/// (checked at sample points to 1e-12 relative; the derivatives are exact polynomial
/// arithmetic).
#[test]
fn manufactured_solution_is_consistent() {
    let m = Manufactured::new();
    let p = m.p;
    let ft = |x: [f64; 2]| {
        let (a, b) = (x[0], x[1]);
        let (qa, qb) = (a * (a - 1.0), b * (b - 1.0));
        let (la, lb) = (5.0 * a * a - 5.0 * a + 1.0, 5.0 * b * b - 5.0 * b + 1.0);
        p.E / (12.0 * (1.0 - p.nu * p.nu))
            * (12.0 * qb * la * (2.0 * qb * qb + qa * lb)
                + 12.0 * qa * lb * (2.0 * qa * qa + qb * la))
    };
    for x in [[0.3, 0.7], [0.11, 0.52], [0.5, 0.5], [0.9, 0.25]] {
        let a = m.f_s(x);
        let b = p.h.powi(3) * ft(x);
        assert!((a - b).abs() < 1e-12 * b.abs().max(1e-12), "f_s {a} vs {b}");
        // Div M + q = 0 with M = 𝒟_b Grad θ: differentiate numerically-free via the
        // polynomial fields: (Div M)_i = ∂_x M_i0 + ∂_y M_i1
        let eps = 1e-5;
        let mm = |y: [f64; 2]| m.moments(y);
        let dmx = |i: usize| {
            (mm([x[0] + eps, x[1]])[2 * i] - mm([x[0] - eps, x[1]])[2 * i]) / (2.0 * eps)
                + (mm([x[0], x[1] + eps])[2 * i + 1] - mm([x[0], x[1] - eps])[2 * i + 1])
                    / (2.0 * eps)
        };
        let q = m.shear(x);
        for (i, qi) in q.iter().enumerate() {
            let r = dmx(i) + qi;
            // central differences: O(eps²) truncation on quantities of size ~1e-7
            assert!(
                r.abs() < 1e-12,
                "Div M + q component {i}: {r} (q = {})",
                q[i]
            );
        }
    }
    for s in [0.0, 0.3, 1.0] {
        for x in [[s, 0.0], [s, 1.0], [0.0, s], [1.0, s]] {
            assert!(m.w_s(x).abs() < 1e-15);
            let t = m.theta_s(x);
            assert!(t[0].abs() < 1e-15 && t[1].abs() < 1e-15);
        }
    }
}

/// Structure: J skew to round-off, E symmetric PSD, the multiplier block algebraic; lossless
/// energy conservation of the midpoint rule with the weak-symmetry constraint (unforced
/// plate, |H(t_end)/H(0) − 1| < 1e-10 over 200 steps, measured ≤ 2e-12; the constraint A E_κ = 0 is preserved).
#[test]
fn afw_structure_and_energy() {
    let ms = Manufactured::new();
    let mesh = Mesh2d::unit_square(4, Diagonal::Left).unwrap();
    for k in 1..=3 {
        let model = MindlinAfw::new(params(), &mesh, k)
            .unwrap()
            .build()
            .unwrap();
        let sys = model.system();
        sys.check(&Default::default()).unwrap();
        let e0 = model.interpolate_state(&|x| 1e3 * ms.w_s(x), &|x| {
            let t = ms.theta_s(x);
            [1e3 * t[0], 1e3 * t[1]]
        });
        let params = MidpointParams {
            step: FixedStepParams {
                t0: 0.0,
                t_end: 2.0,
                h: 0.01,
                output_every: 10,
            },
            ..Default::default()
        };
        let mut cn = LinearMidpoint::new(sys, InputFn::zeros(0), params).unwrap();
        let h0 = sys.hamiltonian(&e0);
        let mut last = 0.0;
        let res = cn
            .run(&e0, &mut |_t: f64, e: &[f64]| last = sys.hamiltonian(e))
            .unwrap();
        assert!(h0 > 0.0);
        assert!(((last - h0) / h0).abs() < 1e-10, "k={k}: H {h0} -> {last}");
        assert!(res.ledger.relative_drift() < 1e-10);
    }
}

/// Mesh subdivisions of a thesis row labelled `1/h = label`: the k = 3 table B.11 is
/// labelled with half the subdivisions. Our k = 3 errors on the n × n mesh with
/// Δt = 0.1/n reproduce the thesis row "1/h = n/2" to its 3 printed digits (n = 4: 1.116e-6,
/// 1.630e-5, 2.139e-9, 4.632e-8 vs thesis "1/h = 2": 1.11e-6, 1.63e-5, 2.14e-9, 4.63e-8),
/// while on the 2 × 2 mesh e_w is 8.28e-6 (+646 %) and with Δt = 0.05 on 4 × 4 e_θ, E_κ, e_γ
/// move by 2–5 %: B.11 was computed on UnitSquareMesh(2/h) with Δt = h_mesh/10.
fn mesh_of(k: usize, label: usize) -> usize {
    if k == 3 {
        2 * label
    } else {
        label
    }
}

/// The thesis's own k = 3 finest-mesh row is polluted by its iterative solver (summary
/// §5.1.2: E_κ and e_γ orders drop to 1.43/1.44 "due to the saddle-point problem",
/// GMRES(100) instead of LU; e_θ drops to 2.63 and is 33 % above ours, which keeps order
/// 3.2 with a direct LU of the equilibrated system). The e_θ, E_κ, e_γ entries of that row
/// are compared with the conjectured rate h^k (7.15) instead: order > k − 0.15 (measured
/// 3.2–3.3: pre-asymptotic superconvergence, as in the thesis's own e_θ, E_κ orders 3.28/3.43
/// on the previous mesh).
fn thesis_solver_failure(k: usize, label: usize, field: usize) -> bool {
    k == 3 && label == 16 && (1..=3).contains(&field)
}

/// Computes the rows of the thesis table `rows` for degree `k`, appends them as Markdown to
/// `out` and checks them: values within `vtol` (relative) and orders within `otol` of the
/// thesis order between the same meshes (except [`thesis_solver_failure`] entries). E_r:
/// the exact multiplier vanishes (θ_s = ∇(⅓x³(x−1)³y³(y−1)³) is a gradient, so
/// skw(grad θ_s) = 0) and E_r^h must converge to 0 at least at the conjectured rate
/// (order > k − 0.5 between consecutive meshes); the thesis's B.12 values are printed for
/// reference only (see the report: they are 4–5 decades below ours and not reproducible).
fn check_rows(k: usize, rows: &[Row], vtol: f64, otol: f64, out: &mut String) {
    let mut prev: Option<(usize, [f64; 5])> = None;
    for (i, (label, th)) in rows.iter().enumerate() {
        let t = Instant::now();
        let n = mesh_of(k, *label);
        let e = afw_errors(k, n, 0.1 / n as f64);
        let er_th = [4usize, 8, 16, 32]
            .iter()
            .position(|m| m == label)
            .map(|j| B12[k - 1][j]);
        let mut line = format!("| {k} | {label} | {n} |");
        let mut fails: Vec<String> = Vec::new();
        for f in 0..5 {
            let thv = if f < 4 { Some(th[f]) } else { er_th };
            let ord =
                prev.map(|(pl, pe)| (pe[f] / e[f]).log2() / (*label as f64 / pl as f64).log2());
            let tord = if i > 0 && f < 4 {
                let (pl, pth) = rows[i - 1];
                Some((pth[f] / th[f]).log2() / (*label as f64 / pl as f64).log2())
            } else {
                None
            };
            line.push_str(&format!(
                " {:.2e} ({}) | {} ({}) |",
                e[f],
                thv.map_or("—".into(), |v| format!("{v:.2e}")),
                ord.map_or("—".into(), |o| format!("{o:.2}")),
                tord.map_or("—".into(), |o| format!("{o:.2}")),
            ));
            if f == 4 {
                if let Some(o) = ord {
                    if o <= k as f64 - 0.5 {
                        fails.push(format!("k={k} n={n} E_r order {o:.3}"));
                    }
                }
                continue;
            }
            if thesis_solver_failure(k, *label, f) {
                let o = ord.expect("not the first row");
                if o < k as f64 - 0.15 {
                    fails.push(format!("k={k} n={n} {}: order {o:.3} < k - 0.15", NAMES[f]));
                }
                continue;
            }
            let d = (e[f] - th[f]) / th[f];
            if d.abs() >= vtol {
                fails.push(format!(
                    "k={k} n={n} {}: {:.3e} vs thesis {:.3e} ({:+.1} %)",
                    NAMES[f],
                    e[f],
                    th[f],
                    100.0 * d
                ));
            }
            if let (Some(o), Some(to)) = (ord, tord) {
                if (o - to).abs() >= otol {
                    fails.push(format!(
                        "k={k} n={n} {}: order {o:.3} vs thesis {to:.3}",
                        NAMES[f]
                    ));
                }
            }
        }
        eprintln!("{line} [{:.2?}]", t.elapsed());
        out.push_str(&line);
        out.push('\n');
        assert!(fails.is_empty(), "{fails:#?}");
        prev = Some((*label, e));
    }
}

const HEADER: &str = "| k | 1/h (thesis) | n | e_w (thesis) | ord (thesis) | e_θ (thesis) | ord (thesis) | E_κ (thesis) | ord (thesis) | e_γ (thesis) | ord (thesis) | E_r (thesis B.12) | ord |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";

/// CI twin: k = 1, 2 on 1/h = 4, 8 against Tables B.9–B.10 (values within 15 %, orders
/// within ±0.15 of the thesis's orders between the same meshes).
#[test]
fn afw_convergence_coarse() {
    let mut out = String::from(HEADER);
    for k in 1..=2 {
        check_rows(k, &thesis_table(k)[..2], 0.15, 0.15, &mut out);
    }
    println!("{out}");
}

/// Full study: every mesh of Tables B.9–B.11 (k = 1, 2 to 32 × 32, k = 3 to the thesis's
/// "1/h = 16" = 32 × 32, see [`mesh_of`]) plus E_r; writes `target/afw_convergence.md`.
/// Measured (60 s in release): all thesis values of e_w, e_θ, E_κ, e_γ within 2.7 % and all
/// orders within 0.07 of the thesis's, except the solver-polluted k = 3 finest row (e_w
/// −7.5 %, order 2.98 vs 2.86; e_θ, E_κ, e_γ ours 2.84e-8, 2.43e-12, 1.30e-10 vs 4.24e-8,
/// 8.99e-12, 3.64e-10, our orders 3.20, 3.32, 2.93 vs the thesis's 2.63, 1.43, 1.44);
/// finest-mesh orders k = 1: 1.00, 1.00, 1.97, 0.99; k = 2: 1.99, 1.97, 1.98, 1.98; k = 3:
/// 2.98, 3.20, 3.32, 2.93.
#[test]
#[ignore = "full AFW convergence study (meshes up to 32 x 32, ~60 s in release); fast twin: afw_convergence_coarse"]
fn afw_convergence_full() {
    let mut out = String::from(HEADER);
    for k in 1..=3 {
        check_rows(k, thesis_table(k), 0.15, 0.15, &mut out);
    }
    println!("{out}");
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target");
    let tmp = dir.join("afw_convergence.md.tmp");
    std::fs::write(&tmp, &out).unwrap();
    std::fs::rename(&tmp, dir.join("afw_convergence.md")).unwrap();
}

/// Velocity boundary ports: the output of `left_omega` for the constant moment field
/// M = [[1, 2], [3, 4]] is ∫_left (M n)_c L_0 = (−1, −3) (n = (−1, 0), length 1) and its
/// higher Legendre moments vanish; `left_wt` gives ∫ q·n = −0.5 for q = (0.5, 7). A run
/// driven by a boundary velocity keeps the discrete power balance H₁ − H₀ = Δt ȳᵀū to
/// round-off (ledger residual < 1e-10 relative), and the plate gains energy.
#[test]
fn afw_velocity_ports() {
    let mesh = Mesh2d::unit_square(4, Diagonal::Left).unwrap();
    for k in 1..=3 {
        let model = MindlinAfw::new(params(), &mesh, k)
            .unwrap()
            .port("left")
            .build()
            .unwrap();
        let sys = model.system();
        sys.check(&Default::default()).unwrap();
        let e = model
            .interpolate_fields(
                &|_| 0.0,
                &|_| [0.0, 0.0],
                Some(&|_| [1.0, 2.0, 3.0, 4.0]),
                Some(&|_| [0.5, 7.0]),
            )
            .unwrap();
        let y = sys.port_output("left_omega", &e).unwrap();
        assert_eq!(y.len(), 4 * 2 * (k + 1));
        let (mut sx, mut sy) = (0.0, 0.0);
        for (i, v) in y.iter().enumerate() {
            let (j, c) = ((i / 2) % (k + 1), i % 2);
            if j == 0 {
                if c == 0 {
                    sx += v;
                } else {
                    sy += v;
                }
            } else {
                assert!(v.abs() < 1e-12, "k={k}: higher moment {v}");
            }
        }
        assert!(
            (sx + 1.0).abs() < 1e-12 && (sy + 3.0).abs() < 1e-12,
            "{sx} {sy}"
        );
        let yw = sys.port_output("left_wt", &e).unwrap();
        assert_eq!(yw.len(), 4 * k);
        let s0: f64 = yw.iter().step_by(k).sum();
        assert!((s0 + 0.5).abs() < 1e-12, "k={k}: {s0}");
        // drive: w_t = sin(2πt) ⋅ L_0 on every left edge, ω = 0
        let nw = yw.len();
        let mut sig = vec![];
        for i in 0..sys.n_inputs() {
            if i < nw && i % k == 0 {
                sig.push(Signal::from_fn(|t: f64| {
                    (2.0 * std::f64::consts::PI * t).sin()
                }));
            } else {
                sig.push(Signal::from_fn(|_t: f64| 0.0));
            }
        }
        let mut cn = common::integrate::midpoint(sys, InputFn::new(sig), 0.5, 0.01);
        let z = vec![0.0; sys.n_states()];
        let mut h_end = 0.0;
        let res = cn
            .run(&z, &mut |_t: f64, e: &[f64]| h_end = sys.hamiltonian(e))
            .unwrap();
        assert!(h_end > 0.0);
        assert!(
            res.ledger.max_relative_residual() < 1e-10,
            "k={k}: residual {}",
            res.ledger.max_relative_residual()
        );
    }
}

/// Free vibrations of the clamped square (thesis App. C / summary §5.2 data: E = 1e12,
/// ν = 0.3, ρ = 2600, b = 0.1, K_sh = 5/6; normalised ω̂ = ω √(2(1+ν)ρ/E)): the AFW pencil
/// with its algebraic multiplier block has the physical spectrum of the plate. Reference:
/// converged CGDG values (tests/plate_mindlin.rs: CG3/DG2 8 × 8 1.5871, 3.0274, 3.0275,
/// 4.2436, 4.9992, 5.0468) and Dawe–Roufaeil ω̂₁ = 1.59. AFW k = 2 on 8 × 8 (equilibrated
/// system, modes are invariant under the congruence; 4 224 states, 0.1 s): measured 1.5872,
/// 3.0287, 3.0303, 4.2497, 5.0097, 5.0580, i.e. ≤ 0.21 % above the CGDG values (asserted
/// 0.5 %), no spurious mode from the multiplier block.
#[test]
fn afw_clamped_square_modes() {
    const CGDG3: [f64; 6] = [1.5871, 3.0274, 3.0275, 4.2436, 4.9992, 5.0468];
    let p = common::plates::thesis_mindlin();
    let mesh = Mesh2d::unit_square(8, Diagonal::Left).unwrap();
    let model = MindlinAfw::new(p, &mesh, 2).unwrap().build().unwrap();
    model.system().check(&Default::default()).unwrap();
    let (sys, _) = model.equilibrated_system().unwrap();
    let t = Instant::now();
    let w = common::plates::mindlin_scaled_modes(&sys, &p, 1e-8);
    eprintln!(
        "AFW k=2 8x8 ({} states): {w:.4?} in {:.2?}",
        sys.n_states(),
        t.elapsed()
    );
    assert_eq!(w.len(), 6);
    for (a, b) in w.iter().zip(CGDG3) {
        assert!((a - b).abs() < 5e-3 * b, "{a} vs CGDG {b}");
    }
}

/// Free edges (essential E_κ n = 0, q_n = 0 on the normal-moment DOFs): the completely free
/// square has the physical elastic spectrum of the CGDG discretisation (natural free edges
/// there, an independent discretisation): lowest 6 non-rigid ω̂ of AFW k = 2 on 8 × 8
/// against CGDG k = 3 on 8 × 8, within 1 % (same data as the clamped test). Measured AFW
/// 0.6191, 0.9244, 1.1381, 1.5541, 1.5549, 2.7018 vs CGDG 0.6207, 0.9243, 1.1381, 1.5578,
/// 1.5578, 2.7010 (≤ 0.26 %); the three rigid-body modes are the rejected zeros.
#[test]
fn afw_free_square_modes() {
    use phlex_fem::models::plate::MindlinCgDg;
    let p = common::plates::thesis_mindlin();
    let scale = (2.0 * (1.0 + p.nu) * p.rho / p.E).sqrt();
    let mesh = Mesh2d::unit_square(8, Diagonal::Left).unwrap();
    let mut b = MindlinAfw::new(p, &mesh, 2).unwrap();
    for tag in mesh.tag_names() {
        b = b.free(&tag);
    }
    let model = b.build().unwrap();
    model.system().check(&Default::default()).unwrap();
    let (sys, _) = model.equilibrated_system().unwrap();
    // rigid-body modes (ω = 0) are rejected
    let scaled = |w: Vec<f64>| -> Vec<f64> { w.iter().map(|w| w * scale).collect() };
    let wa = scaled(lowest_frequencies(&sys, 6, 1.0 / scale));
    let cg = MindlinCgDg::new(p, &mesh, 3).unwrap().build().unwrap();
    let wc = scaled(lowest_frequencies(cg.system(), 6, 1.0 / scale));
    eprintln!("free square: AFW k=2 {wa:.4?}\n             CGDG k=3 {wc:.4?}");
    assert_eq!(wa.len(), 6);
    for (a, c) in wa.iter().zip(&wc) {
        assert!((a - c).abs() < 1e-2 * c, "AFW {a} vs CGDG {c}");
    }
}

// ------------------------------------------------- boundary conditions and ports (issue 4)

/// Lowest `n` non-zero angular frequencies of a linear pH system (shift-invert Arnoldi
/// around `shift`, rigid modes rejected by `zero_tol`).
fn lowest_frequencies(sys: &LinearPhSystem, n: usize, shift: f64) -> Vec<f64> {
    use phlex_solve::eigen::{modes, EigenMethod, EigenParams};
    modes(
        sys,
        &EigenParams {
            n_modes: Some(n),
            method: EigenMethod::ShiftInvert,
            shift: Some(shift),
            tol: 1e-8,
            max_krylov: Some(400),
            zero_tol: 1e-3,
            ..Default::default()
        },
    )
    .unwrap()
    .frequencies()
}

/// Static response of a linear pH system to a constant input `u`: with the co-energies of
/// the `stress` blocks σ (moments, shear forces) and the time integrals q of all other
/// states (displacements, rotations, integrated multipliers), integrating
/// E ė = J e + B u once in time at equilibrium gives
/// 0 = J_{V,S} σ + B_V u (momentum rows), E_{SS} σ = J_{S,·} q (compliance rows),
/// 0 = J_{A,S} σ + B_A u (constraint rows), i.e. (J − E_SS) x = −B u with x = (q, σ).
/// Valid when J has no V–V, V–A, A–A or S–S coupling (AFW and CGDG Mindlin) and the
/// input does not enter the compliance rows (traction and load ports).
fn static_response(sys: &LinearPhSystem, stress: &[&str], u: &[f64]) -> Vec<f64> {
    use phlex_core::sparse::{self, Triplets};
    use phlex_solve::linsolve::SparseLu;
    let n = sys.n_states();
    let mut is_s = vec![false; n];
    for b in stress {
        for i in sys.block_range(b).unwrap() {
            is_s[i] = true;
        }
    }
    let mut t = Triplets::new(n, n);
    t.push_block(0, 0, &sys.J, 1.0);
    for j in 0..n {
        for (i, v) in sparse::col_iter(&sys.E, j) {
            if is_s[i] && is_s[j] {
                t.push(i, j, -v);
            }
        }
    }
    let k = t.build();
    let mut x = vec![0.0; n];
    sparse::mul_add(&mut x, -1.0, &sys.B, u);
    let mut lu = SparseLu::<f64>::new("static plate", k.symbolic()).unwrap();
    lu.factorize(k.as_ref()).unwrap();
    lu.solve_in_place(&mut x).unwrap();
    x
}

/// Input vector of `sys` with the entries of port `name` set by `f(i)`, others zero.
fn port_input(sys: &LinearPhSystem, name: &str, f: &dyn Fn(usize) -> f64) -> Vec<f64> {
    let mut u = vec![0.0; sys.n_inputs()];
    let mut off = 0;
    for p in sys.ports.iter() {
        if p.name == name {
            for i in 0..p.dim {
                u[off + i] = f(i);
            }
        }
        off += p.dim;
    }
    u
}

/// Every kind of boundary port driven at once, k = 1, 2, 3, on a 4 × 4 square: left
/// clamped (natural), bottom simply supported (edge-frame rotated BDM DOFs), right a
/// traction port (inputs q_n, M n through Lagrange multipliers, outputs the velocity
/// traces), top a velocity port (inputs w_t, ω). Implicit midpoint from rest: the discrete
/// power balance H₁ − H₀ = Δt ȳᵀū holds per step to round-off (ledger residual < 1e-10
/// relative; the scheme is exact for the quadratic H, so only round-off remains), every
/// port exchanges energy, and J skew / E symmetric PSD hold. Measured residuals 5.7e-15,
/// 1.7e-14, 2.6e-14 (k = 1, 2, 3).
#[test]
fn afw_power_balance_all_port_kinds() {
    let mesh = Mesh2d::unit_square(4, Diagonal::Right).unwrap();
    for k in 1..=3 {
        let model = MindlinAfw::new(params(), &mesh, k)
            .unwrap()
            .clamped("left")
            .simply_supported("bottom")
            .traction_port("right")
            .port("top")
            .build()
            .unwrap();
        let sys = model.system();
        sys.check(&Default::default()).unwrap();
        let names: Vec<String> = sys.ports.iter().map(|p| p.name.clone()).collect();
        assert_eq!(names, ["right_qn", "right_Mn", "top_wt", "top_omega"]);
        // inputs vanish at t = 0 (consistent with the rest state: traction constraint
        // G^T e = u holds initially); distinct frequencies per port and Legendre index
        let mut sig = vec![];
        let mut p_of = vec![];
        for (ip, p) in sys.ports.iter().enumerate() {
            for i in 0..p.dim {
                p_of.push(ip);
                let (a, f) = (
                    1.0 / (1.0 + i as f64),
                    1.0 + 0.5 * ip as f64 + 0.1 * i as f64,
                );
                // amplitudes balance the port powers of this soft plate (E = 1 Pa): traction
                // inputs O(1) and O(0.1), velocity inputs O(100), O(300)
                let amp = a * match p.name.rsplit('_').next() {
                    Some("Mn") => 0.1,
                    Some("wt") => 100.0,
                    Some("omega") => 300.0,
                    _ => 1.0,
                };
                sig.push(Signal::from_fn(move |t: f64| {
                    amp * (2.0 * std::f64::consts::PI * f * t).sin()
                }));
            }
        }
        let prm = common::integrate::midpoint_params(0.0, 0.5, 0.01);
        let mut cn = LinearMidpoint::new(sys, InputFn::new(sig), prm).unwrap();
        let z = vec![0.0; sys.n_states()];
        let res = cn.run(&z, &mut |_t: f64, _e: &[f64]| {}).unwrap();
        let l = &res.ledger;
        let scale = l.energy_scale();
        let supplied = l.supplied.last().unwrap();
        eprintln!(
            "k={k}: residual {:.2e}, H_end {:.3e}, supplied per port {supplied:?}",
            l.max_relative_residual(),
            l.hamiltonian.last().unwrap()
        );
        assert!(
            l.max_relative_residual() < 1e-10,
            "k={k}: residual {}",
            l.max_relative_residual()
        );
        for (name, w) in names.iter().zip(supplied) {
            assert!(w.abs() > 1e-3 * scale, "k={k}: port {name} idle ({w})");
        }
    }
}

/// Traction port = essential condition, checked on the static AFW solution of a
/// cantilever [0, 2] × [0, 1] (left clamped through a zero-input velocity port, top and
/// bottom free, right a traction port with q_n = F = 1 N/m, i.e. input ∫_e q_n L_0 = F|e|):
/// * the imposed trace is what a velocity port on the same edge reads: the same mesh with
///   `port("right")` has the same first five blocks, and its outputs `right_wt`
///   (∫ q_n L_j) and `right_omega` (∫ (E_κ n)_c L_j) applied to the static state equal the
///   traction inputs (F|e| for j = 0, else 0) to round-off — same sign conventions;
/// * momentum balance: the shear reaction on the clamped edge (output of `left_wt`) sums
///   to −F·W exactly (the constant DG test function in the momentum row gives
///   ∫_∂Ω q_n = 0 for the discrete solution);
/// * the multipliers (outputs of `right_qn`) are the static deflection trace: their L_0
///   coefficients times |e| sum to ∫_right w ds > 0 (compared with CGDG in
///   `afw_cantilever_static_tip_load`).
#[test]
fn afw_traction_port_equilibrium() {
    let mesh = Mesh2d::rectangle(0.0, 2.0, 0.0, 1.0, 4, 2, Diagonal::Left).unwrap();
    for k in 1..=3 {
        let b = MindlinAfw::new(params(), &mesh, k)
            .unwrap()
            .port("left")
            .free("top")
            .free("bottom");
        let model = b.clone().traction_port("right").build().unwrap();
        let probe = b.port("right").build().unwrap();
        let sys = model.system();
        let len = mesh.tagged_edges("right").unwrap().len();
        let he = 1.0 / len as f64;
        let u = port_input(sys, "right_qn", &|i| if i % k == 0 { he } else { 0.0 });
        let x = static_response(sys, &["E_kappa", "e_gamma"], &u);
        // imposed traces read by the velocity-port probe
        let n5 = probe.n_states();
        assert_eq!(sys.block_range("lambda").unwrap().start, n5);
        let qn = probe.system().port_output("right_wt", &x[..n5]).unwrap();
        for (i, v) in qn.iter().enumerate() {
            let want = if i % k == 0 { he } else { 0.0 };
            assert!(
                (v - want).abs() < 1e-10,
                "k={k}: q_n moment {i}: {v} vs {want}"
            );
        }
        let mn = probe.system().port_output("right_omega", &x[..n5]).unwrap();
        let mmax = mn.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        assert!(mmax < 1e-10, "k={k}: moment trace {mmax}");
        // momentum balance
        let react = sys.port_output("left_wt", &x).unwrap();
        let r0: f64 = react.iter().step_by(k).sum();
        assert!((r0 + 1.0).abs() < 1e-9, "k={k}: reaction {r0}");
        // deflection trace from the multipliers
        let wt = sys.port_output("right_qn", &x).unwrap();
        let wint: f64 = wt.iter().step_by(k).map(|c| c * he).sum();
        eprintln!("k={k}: ∫_right w ds = {wint:.6e}");
        assert!(wint > 0.0);
    }
}

/// Number of independent rigid motions: the kernel dimension of the strain-rate map
/// (rows `E_kappa`, `e_gamma` of J; columns `e_w`, `e_theta`, `r` and the traction
/// multipliers `lambda`). A velocity field in it produces no moment or shear rate, i.e.
/// a rigid motion of the discrete plate (w = a + bx + cy, θ = (b, c)).
fn rigid_motions(sys: &LinearPhSystem) -> usize {
    use phlex_core::sparse;
    let range = |b: &str| sys.block_range(b).into_iter().flatten();
    let rows: Vec<usize> = range("E_kappa").chain(range("e_gamma")).collect();
    let cols: Vec<usize> = range("e_w")
        .chain(range("e_theta"))
        .chain(range("r"))
        .chain(range("lambda"))
        .collect();
    let g = sparse::to_dense(&sparse::restrict(&sys.J, &rows, &cols));
    let (_, rank) = phlex_solve::nullspace::null_space_basis(&g, 1e-9);
    cols.len() - rank
}

/// Rigid-body modes by boundary condition (k = 1, 2, 3 on 3 × 3; equilibrated systems):
/// all edges free — by `free` (strong) or by zero-input `traction_port`s (multipliers) —
/// exactly the 3 rigid motions of a free plate; one clamped edge (cantilever), all edges
/// simply supported, or all clamped: none.
#[test]
fn afw_rigid_motions_by_boundary_condition() {
    let mesh = Mesh2d::unit_square(3, Diagonal::Left).unwrap();
    let sides = ["left", "right", "bottom", "top"];
    for k in 1..=3 {
        let new = || MindlinAfw::new(params(), &mesh, k).unwrap();
        let cases: Vec<(&str, MindlinAfw, usize)> = vec![
            ("free", sides.iter().fold(new(), |b, s| b.free(s)), 3),
            (
                "traction ports",
                sides.iter().fold(new(), |b, s| b.traction_port(s)),
                3,
            ),
            (
                "cantilever",
                new().free("right").free("top").free("bottom"),
                0,
            ),
            (
                "simply supported",
                sides.iter().fold(new(), |b, s| b.simply_supported(s)),
                0,
            ),
            ("clamped", new(), 0),
        ];
        for (name, b, want) in cases {
            let (sys, _) = b.build().unwrap().equilibrated_system().unwrap();
            assert_eq!(rigid_motions(&sys), want, "k={k}: {name}");
        }
    }
}

/// Lowest root ω² of the hard simply supported Mindlin plate for the Navier mode
/// w = W sin αx sin βy, θ = (X cos αx sin βy, Y sin αx cos βy) (α = mπ/a, β = nπ/b), which
/// satisfies w = θ_s = M_nn = 0 on every edge: the 3 × 3 problem K v = ω² diag(ρb, I, I) v
/// with κ = K_sh G b, D = E b³/(12(1 − ν²)),
/// K = [[κ(α²+β²), −κα, −κβ], [−κα, D(α² + (1−ν)β²/2) + κ, D(1+ν)αβ/2],
///      [−κβ, D(1+ν)αβ/2, D(β² + (1−ν)α²/2) + κ]]
/// (from ρb ẅ = div q, I θ̈ = Div M + q, q = κ(grad w − θ)). Eigenvalues of the symmetric
/// M^{-1/2} K M^{-1/2} by cyclic Jacobi rotations.
fn mindlin_ss_omega(p: &MindlinParams, a: f64, b: f64, m: usize, n: usize) -> f64 {
    let (al, be) = (
        m as f64 * std::f64::consts::PI / a,
        n as f64 * std::f64::consts::PI / b,
    );
    let kap = p.k_sh * p.shear_modulus() * p.h;
    let d = p.E * p.h.powi(3) / (12.0 * (1.0 - p.nu * p.nu));
    let k = [
        [kap * (al * al + be * be), -kap * al, -kap * be],
        [
            -kap * al,
            d * (al * al + 0.5 * (1.0 - p.nu) * be * be) + kap,
            0.5 * d * (1.0 + p.nu) * al * be,
        ],
        [
            -kap * be,
            0.5 * d * (1.0 + p.nu) * al * be,
            d * (be * be + 0.5 * (1.0 - p.nu) * al * al) + kap,
        ],
    ];
    let mass = [
        p.rho * p.h,
        p.rho * p.h.powi(3) / 12.0,
        p.rho * p.h.powi(3) / 12.0,
    ];
    let mut s = [[0.0; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            s[i][j] = k[i][j] / (mass[i] * mass[j]).sqrt();
        }
    }
    for _ in 0..50 {
        for (pi, qi) in [(0, 1), (0, 2), (1, 2)] {
            if s[pi][qi].abs() < 1e-300 {
                continue;
            }
            let th = 0.5 * (2.0 * s[pi][qi]).atan2(s[qi][qi] - s[pi][pi]);
            let (c, sn) = (th.cos(), th.sin());
            // s <- Gᵀ s G with the rotation in the (p, q) plane
            for r in 0..3 {
                let (a1, a2) = (s[r][pi], s[r][qi]);
                s[r][pi] = c * a1 - sn * a2;
                s[r][qi] = sn * a1 + c * a2;
            }
            for r in 0..3 {
                let (a1, a2) = (s[pi][r], s[qi][r]);
                s[pi][r] = c * a1 - sn * a2;
                s[qi][r] = sn * a1 + c * a2;
            }
        }
    }
    (0..3).map(|i| s[i][i]).fold(f64::INFINITY, f64::min).sqrt()
}

/// Hard simply supported square (all edges `simply_supported`: M_nn removed in the edge
/// frame, w_t = ω_s = 0 natural), thesis modal data, AFW k = 2 on 8 × 8 against the exact
/// Navier solution of the Mindlin equations (`mindlin_ss_omega`; modes (1,1), (1,2),
/// (2,1), (2,2), (1,3), (3,1)): within 1 %. Measured 0.9304, 2.2203, 2.2209, 3.4105,
/// 4.1571, 4.1571 vs exact 0.9303, 2.2193, 2.2193, 3.4056, 4.1494, 4.1494 (≤ 0.19 %).
#[test]
fn afw_simply_supported_square_exact() {
    let p = common::plates::thesis_mindlin();
    let scale = (2.0 * (1.0 + p.nu) * p.rho / p.E).sqrt();
    let mut exact: Vec<f64> = (1..=4)
        .flat_map(|m| (1..=4).map(move |n| (m, n)))
        .map(|(m, n)| mindlin_ss_omega(&p, 1.0, 1.0, m, n) * scale)
        .collect();
    exact.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let mesh = Mesh2d::unit_square(8, Diagonal::Left).unwrap();
    let mut b = MindlinAfw::new(p, &mesh, 2).unwrap();
    for s in ["left", "right", "bottom", "top"] {
        b = b.simply_supported(s);
    }
    let model = b.build().unwrap();
    model.system().check(&Default::default()).unwrap();
    let (sys, _) = model.equilibrated_system().unwrap();
    let w: Vec<f64> = lowest_frequencies(&sys, 6, 1.0 / scale)
        .iter()
        .map(|w| w * scale)
        .collect();
    eprintln!(
        "SS square AFW k=2 8x8: {w:.4?}\n             exact: {:.4?}",
        &exact[..6]
    );
    assert_eq!(w.len(), 6);
    for (a, e) in w.iter().zip(&exact) {
        assert!((a - e).abs() < 1e-2 * e, "AFW {a} vs exact {e}");
    }
}

/// Cantilever square plate (left clamped, three edges free), thesis modal data: lowest 6
/// ω̂ of AFW k = 2 on 8 × 8 against CGDG k = 3 on the same mesh (free edges natural there;
/// an independent discretisation, converged to ~0.1 % for the free square) within 1 %.
/// Also printed: the thin-plate parameter λ = ω a² √(ρb/D) (Leissa CFFF: 3.47, 8.51,
/// 21.3, 27.2, 31.0; Mindlin at b/a = 0.1 lies slightly below). Measured λ: AFW 3.4300,
/// 8.0471, 20.084, 25.483, 28.201, 47.451 vs CGDG 3.4310, 8.0620, 20.091, 25.501, 28.251,
/// 47.545 (≤ 0.2 %).
#[test]
fn afw_cantilever_modes_vs_cgdg() {
    use phlex_fem::models::plate::MindlinCgDg;
    let p = common::plates::thesis_mindlin();
    let scale = (2.0 * (1.0 + p.nu) * p.rho / p.E).sqrt();
    let mesh = Mesh2d::unit_square(8, Diagonal::Left).unwrap();
    let t = Instant::now();
    let model = MindlinAfw::new(p, &mesh, 2)
        .unwrap()
        .free("right")
        .free("top")
        .free("bottom")
        .build()
        .unwrap();
    let (sys, _) = model.equilibrated_system().unwrap();
    let wa = lowest_frequencies(&sys, 6, 0.3 / scale);
    let cg = MindlinCgDg::new(p, &mesh, 3)
        .unwrap()
        .clamped("left")
        .build()
        .unwrap();
    let wc = lowest_frequencies(cg.system(), 6, 0.3 / scale);
    let d = p.E * p.h.powi(3) / (12.0 * (1.0 - p.nu * p.nu));
    let lam = |w: &f64| w * (p.rho * p.h / d).sqrt();
    eprintln!(
        "cantilever: AFW k=2 λ {:.4?}\n            CGDG k=3 λ {:.4?} ({:.2?})",
        wa.iter().map(lam).collect::<Vec<_>>(),
        wc.iter().map(lam).collect::<Vec<_>>(),
        t.elapsed()
    );
    assert_eq!(wa.len(), 6);
    assert_eq!(wc.len(), 6);
    for (a, c) in wa.iter().zip(&wc) {
        assert!(
            (a - c).abs() < 1e-2 * c,
            "AFW {} vs CGDG {}",
            lam(a),
            lam(c)
        );
    }
}

/// Static tip-edge line load on the cantilever square (left clamped, top/bottom free,
/// right a traction port with q_n = F): the deflection trace ∫_right w ds of AFW k = 2
/// (multiplier outputs of `right_qn`) against CGDG k = 3 (its traction port `right_qn`,
/// natural there, CG₁ input F at every vertex; output ∫ ψ_l w) on 8 × 8, within 1 %.
/// The beam limit w_tip = F L³/(3D') + F L/(K_sh G b), with D' between D(1 − ν²) and D
/// (anticlastic bending of a wide plate), brackets the value up to the root effect of
/// the clamped Mindlin edge (printed). Measured: AFW 3818.65, CGDG 3816.89 (4.6e-4
/// relative); beam bracket 3671–4031.
#[test]
fn afw_cantilever_static_tip_load() {
    use phlex_fem::models::plate::MindlinCgDg;
    let p = params();
    let mesh = Mesh2d::unit_square(8, Diagonal::Left).unwrap();
    let model = MindlinAfw::new(p, &mesh, 2)
        .unwrap()
        .free("top")
        .free("bottom")
        .traction_port("right")
        .build()
        .unwrap();
    let (sys, _) = model.equilibrated_system().unwrap();
    let he = 1.0 / 8.0;
    let u = port_input(&sys, "right_qn", &|i| if i % 2 == 0 { he } else { 0.0 });
    let x = static_response(&sys, &["E_kappa", "e_gamma"], &u);
    let wa: f64 = sys
        .port_output("right_qn", &x)
        .unwrap()
        .iter()
        .step_by(2)
        .map(|c| c * he)
        .sum();
    let cg = MindlinCgDg::new(p, &mesh, 3)
        .unwrap()
        .clamped("left")
        .port("right")
        .build()
        .unwrap();
    let cs = cg.system();
    let u = port_input(cs, "right_qn", &|_| 1.0);
    let x = static_response(cs, &["E_kappa", "e_gamma"], &u);
    let wc: f64 = cs.port_output("right_qn", &x).unwrap().iter().sum();
    let d = p.E * p.h.powi(3) / (12.0 * (1.0 - p.nu * p.nu));
    let shear = 1.0 / (p.k_sh * p.shear_modulus() * p.h);
    let beam = |dd: f64| 1.0 / (3.0 * dd) + shear;
    eprintln!(
        "tip load: AFW {wa:.6e}, CGDG {wc:.6e} (rel {:.2e}); beam D'=D(1-ν²) {:.6e}, D'=D {:.6e}",
        (wa - wc).abs() / wc,
        beam(d * (1.0 - p.nu * p.nu)),
        beam(d)
    );
    assert!((wa - wc).abs() < 1e-2 * wc, "AFW {wa} vs CGDG {wc}");
}
