//! Seed 001 §5–6: two rigid bodies connected by a joint (Figs. 1–4), with friction and a
//! relative potential; the assembled DAE against the hand-written §6 DAE (with the
//! corrected Ad_{o⁻¹}), functoriality, energy/entropy/momentum balances, and simulations
//! with the Lie-group midpoint rule and Radau5.
#![allow(non_snake_case, clippy::needless_range_loop)]
use std::sync::Arc;

mod common;

use common::{lower_pair_cases, radau, Balance};
use phlex_core::geometry::mat3::{mat_vec, Mat3};
use phlex_core::geometry::se3::ad_star;
use phlex_core::geometry::{so3, Se3};
use phlex_ephs::language::QuadraticEnergy;
use phlex_ephs::library::joint::{joint, JointKind, JointParams};
use phlex_ephs::library::multibody::MultibodyBuilder;
use phlex_ephs::library::rigid_body::{body_momentum, rigid_body, spatial_momentum};
use phlex_ephs::numerics::{LieMidpoint, LieMidpointParams};
use phlex_ephs::{assemble, assemble_nested, EphsDae, System};
use phlex_solve::ImplicitDae;
use rand::{rngs::StdRng, Rng, SeedableRng};

const THETA0: f64 = 300.0;

fn diag(a: f64, b: f64, c: f64) -> Mat3 {
    [[a, 0.0, 0.0], [0.0, b, 0.0], [0.0, 0.0, c]]
}

struct Setup {
    m: [f64; 2],
    J: [Mat3; 2],
    o1: Se3,
    o2: Se3,
    kind: JointKind,
    g: [f64; 3],
}

impl Setup {
    fn new(kind: JointKind, g: [f64; 3]) -> Self {
        Self {
            m: [1.0, 2.0],
            J: [diag(0.1, 0.2, 0.15), diag(0.3, 0.25, 0.1)],
            o1: Se3::new(so3::exp([0.3, 0.0, 0.1]), [0.0, 0.0, 0.5]),
            o2: Se3::new(so3::exp([0.0, -0.2, 0.0]), [0.1, 0.0, -0.4]),
            kind,
            g,
        }
    }
    fn system(&self, spring: f64, mu: f64) -> System {
        let k = self.kind.dim();
        let mut mu_m = vec![0.0; k * k];
        let mut K = vec![0.0; k * k];
        for i in 0..k {
            mu_m[i * k + i] = mu;
            K[i * k + i] = spring;
        }
        // Torsion spring V_r = ½ k |q_r|² in the coordinates (scalar and planar pairs).
        let potential: Option<Arc<dyn phlex_ephs::language::Energy>> = if spring > 0.0 {
            Some(Arc::new(QuadraticEnergy { n: k, K }))
        } else {
            None
        };
        let j = joint(&JointParams {
            kind: self.kind,
            o1: self.o1,
            o2: self.o2,
            potential,
            friction: mu_m,
        })
        .unwrap();
        let mut b = MultibodyBuilder::new();
        b.body("b1", rigid_body(self.m[0], self.J[0], self.g).unwrap())
            .body("b2", rigid_body(self.m[1], self.J[1], self.g).unwrap())
            .joint("j", j, "b1", "b2");
        b.build().unwrap().into()
    }
    /// A consistent state: pose of b1, relative coordinates, velocities u1 and u_r.
    fn state(
        &self,
        dae: &EphsDae,
        xi1: [f64; 6],
        qr: &[f64],
        u1: [f64; 6],
        ur: &[f64],
    ) -> Vec<f64> {
        let mut y = dae.default_state();
        let q1 = Se3::exp(&xi1);
        let I = self.kind.inclusion(qr);
        let q2 = q1.mul(&self.o1).mul(&I).mul(&self.o2.inverse());
        let mut iu = [0.0; 6];
        for c in 0..self.kind.dim() {
            let col = self.kind.i_column(c);
            for k in 0..6 {
                iu[k] += col[k] * ur[c];
            }
        }
        let a = I.Ad_inv(&self.o1.Ad_inv(&u1));
        let mut w = [0.0; 6];
        for k in 0..6 {
            w[k] = a[k] + iu[k];
        }
        let u2 = self.o2.Ad(&w);
        let mut c = [0.0; 12];
        q1.to_coords(&mut c);
        dae.set_state(&mut y, "b1.pe.q", &c).unwrap();
        q2.to_coords(&mut c);
        dae.set_state(&mut y, "b2.pe.q", &c).unwrap();
        let p1 = body_momentum(
            self.m[0],
            &self.J[0],
            [u1[0], u1[1], u1[2]],
            [u1[3], u1[4], u1[5]],
        );
        let p2 = body_momentum(
            self.m[1],
            &self.J[1],
            [u2[0], u2[1], u2[2]],
            [u2[3], u2[4], u2[5]],
        );
        dae.set_state(&mut y, "b1.ke.p", &p1).unwrap();
        dae.set_state(&mut y, "b2.ke.p", &p2).unwrap();
        dae.set_state(&mut y, "j.pe.q_r", qr).unwrap();
        let r = dae.algebraic_range("j.p_r.e").unwrap();
        y[r].copy_from_slice(ur);
        y
    }
    /// Position drift |log((q1 o1 I(q_r))⁻¹ q2 o2)|.
    fn drift(&self, dae: &EphsDae, y: &[f64]) -> f64 {
        let q1 = Se3::from_coords(&y[dae.state_range("b1.pe.q").unwrap()]);
        let q2 = Se3::from_coords(&y[dae.state_range("b2.pe.q").unwrap()]);
        let I = self
            .kind
            .inclusion(&y[dae.state_range("j.pe.q_r").unwrap()]);
        let d = q1
            .mul(&self.o1)
            .mul(&I)
            .inverse()
            .mul(&q2.mul(&self.o2))
            .log();
        d.iter().map(|v| v * v).sum::<f64>().sqrt()
    }
    fn momentum(&self, dae: &EphsDae, y: &[f64]) -> [f64; 6] {
        let mut mu = [0.0; 6];
        for b in ["b1", "b2"] {
            let q = &y[dae.state_range(&format!("{b}.pe.q")).unwrap()];
            let p = &y[dae.state_range(&format!("{b}.ke.p")).unwrap()];
            let s = spatial_momentum(q, p);
            for k in 0..6 {
                mu[k] += s[k];
            }
        }
        mu
    }
}

fn rand6(rng: &mut StdRng, s: f64) -> [f64; 6] {
    let mut v = [0.0; 6];
    for x in &mut v {
        *x = rng.gen_range(-s..s);
    }
    v
}

#[test]
fn assembled_two_body_dae_matches_section6_and_is_functorial() {
    // The §6 DAE (summary, with Ad_{o⁻¹}):
    // ṗ1 = ad*_{u1} p1 − T*L(dV1) − Ad*_{o1⁻¹} Ad*_{I(q_r)⁻¹} λ,  ṗ2 = ad*_{u2} p2 − T*L(dV2) + Ad*_{o2⁻¹} λ,
    // q̇_r = u_r,  0 = −dV_r − μ u_r − i*λ,  0 = Ad_{I⁻¹}Ad_{o1⁻¹}u1 − Ad_{o2⁻¹}u2 + i u_r,
    // ṡ = μ u_r²/θ0 — at random (not necessarily consistent) states.
    let s = Setup::new(JointKind::Revolute, [0.0, 0.0, 9.81]);
    let (kspring, mu) = (2.0, 0.3);
    let sys = s.system(kspring, mu);
    let flat = EphsDae::new(assemble(&sys).unwrap(), THETA0).unwrap();
    let nested = EphsDae::new(assemble_nested(&sys).unwrap(), THETA0).unwrap();
    assert_eq!(
        flat.state_names(),
        ["b1.pe.q", "b1.ke.p", "b2.pe.q", "b2.ke.p", "j.pe.q_r", "j.env.s"]
    );
    assert_eq!(flat.algebraic_names(), ["j.hc.lambda", "j.p_r.e"]);
    assert_eq!(flat.state_names(), nested.state_names());
    assert_eq!(flat.algebraic_names(), nested.algebraic_names());
    let mut rng = StdRng::seed_from_u64(5);
    let (mut dev, mut fun) = (0.0f64, 0.0f64);
    for _ in 0..20 {
        let mut y = flat.default_state();
        let q1 = Se3::exp(&rand6(&mut rng, 1.0));
        let q2 = Se3::exp(&rand6(&mut rng, 1.0));
        let mut c = [0.0; 12];
        q1.to_coords(&mut c);
        flat.set_state(&mut y, "b1.pe.q", &c).unwrap();
        q2.to_coords(&mut c);
        flat.set_state(&mut y, "b2.pe.q", &c).unwrap();
        let p1 = rand6(&mut rng, 1.0);
        let p2 = rand6(&mut rng, 1.0);
        flat.set_state(&mut y, "b1.ke.p", &p1).unwrap();
        flat.set_state(&mut y, "b2.ke.p", &p2).unwrap();
        let phi: f64 = rng.gen_range(-2.0..2.0);
        flat.set_state(&mut y, "j.pe.q_r", &[phi]).unwrap();
        flat.set_state(&mut y, "j.env.s", &[rng.gen_range(0.0..1.0)])
            .unwrap();
        let lam = rand6(&mut rng, 1.0);
        let ur: f64 = rng.gen_range(-1.0..1.0);
        y[flat.algebraic_range("j.hc.lambda").unwrap()].copy_from_slice(&lam);
        y[flat.algebraic_range("j.p_r.e").unwrap()].copy_from_slice(&[ur]);
        let mut f = vec![0.0; y.len()];
        let mut f2 = vec![0.0; y.len()];
        flat.rhs(0.0, &y, &mut f);
        nested.rhs(0.0, &y, &mut f2);
        for (a, b) in f.iter().zip(&f2) {
            fun = fun.max((a - b).abs());
        }
        // Hand-written DAE.
        let u = |m: f64, J: &Mat3, p: &[f64; 6]| -> [f64; 6] {
            let w = mat_vec(
                &phlex_core::geometry::mat3::inverse(J).unwrap(),
                [p[0], p[1], p[2]],
            );
            [w[0], w[1], w[2], p[3] / m, p[4] / m, p[5] / m]
        };
        let u1 = u(s.m[0], &s.J[0], &p1);
        let u2 = u(s.m[1], &s.J[1], &p2);
        let I = s.kind.inclusion(&[phi]);
        let grav = |q: &Se3, m: f64| -> [f64; 6] {
            let f = phlex_core::geometry::mat3::mat_t_vec(&q.R, s.g);
            [0.0, 0.0, 0.0, m * f[0], m * f[1], m * f[2]]
        };
        let f1 = s.o1.Ad_inv_star(&I.Ad_inv_star(&lam));
        let f2v = s.o2.Ad_inv_star(&lam);
        let a1 = ad_star(&u1, &p1);
        let a2 = ad_star(&u2, &p2);
        let g1 = grav(&q1, s.m[0]);
        let g2 = grav(&q2, s.m[1]);
        let r1 = flat.state_range("b1.ke.p").unwrap();
        let r2 = flat.state_range("b2.ke.p").unwrap();
        for k in 0..6 {
            dev = dev.max((f[r1.start + k] - (a1[k] - g1[k] - f1[k])).abs());
            dev = dev.max((f[r2.start + k] - (a2[k] - g2[k] + f2v[k])).abs());
        }
        let rq = flat.state_range("j.pe.q_r").unwrap();
        dev = dev.max((f[rq.start] - ur).abs());
        let rs = flat.state_range("j.env.s").unwrap();
        dev = dev.max((f[rs.start] - mu * ur * ur / THETA0).abs());
        // Algebraic rows: constraint (C e) and p_r balance.
        let lr = flat.algebraic_range("j.hc.lambda").unwrap();
        let vc = {
            let a = I.Ad_inv(&s.o1.Ad_inv(&u1));
            let b = s.o2.Ad_inv(&u2);
            let mut v = [0.0; 6];
            for k in 0..6 {
                v[k] = a[k] - b[k];
            }
            v[2] += ur;
            v
        };
        for k in 0..6 {
            dev = dev.max((f[lr.start + k] - vc[k]).abs());
        }
        let br = flat.algebraic_range("j.p_r.e").unwrap();
        // Junction p_r: pkc.p_r.f + hc.p_r.f + mf.p_r.f = 0 with pkc.p_r.f = dV_r,
        // hc.p_r.f = i*λ = λ_ω3, mf.p_r.f = μ u_r θ/θ0 (θ = θ0, env effort 0).
        dev = dev.max((f[br.start] - (kspring * phi + lam[2] + mu * ur)).abs());
    }
    println!("two-body DAE: max deviation from §6 {dev:.3e}; flat vs nested {fun:.3e}");
    assert!(dev < 1e-13, "{dev}");
    assert!(fun < 1e-14, "{fun}");
}

#[test]
fn continuous_balances_at_consistent_states() {
    // dE_tot/dt = 0 and, without gravity, d/dt Σ Ad*_{q⁻¹} p = 0 at consistent states
    // (velocity constraint satisfied, λ from the hidden constraint).
    let s = Setup::new(JointKind::Revolute, [0.0; 3]);
    let dae = EphsDae::new(assemble(&s.system(2.0, 0.3)).unwrap(), THETA0).unwrap();
    let mut rng = StdRng::seed_from_u64(6);
    let mut worst_e = 0.0f64;
    let mut worst_mu = 0.0f64;
    for _ in 0..10 {
        let phi: f64 = rng.gen_range(-1.0..1.0);
        let mut y = s.state(
            &dae,
            rand6(&mut rng, 1.0),
            &[phi],
            rand6(&mut rng, 1.0),
            &[rng.gen_range(-1.0..1.0)],
        );
        let r = dae.make_consistent(0.0, &mut y).unwrap();
        assert!(r < 1e-13, "velocity constraint residual {r}");
        let mut f = vec![0.0; y.len()];
        dae.rhs(0.0, &y, &mut f);
        // Energy rate by central differences along ẏ (coordinates).
        let h = 1e-6;
        let yp: Vec<f64> = y.iter().zip(&f).map(|(a, b)| a + h * b).collect();
        let ym: Vec<f64> = y.iter().zip(&f).map(|(a, b)| a - h * b).collect();
        let de = (dae.total_energy(&yp) - dae.total_energy(&ym)) / (2.0 * h);
        worst_e = worst_e.max(de.abs());
        let (mp, mm) = (s.momentum(&dae, &yp), s.momentum(&dae, &ym));
        for k in 0..6 {
            worst_mu = worst_mu.max(((mp[k] - mm[k]) / (2.0 * h)).abs());
        }
    }
    println!("consistent states: |dE_tot/dt| ≤ {worst_e:.3e}, |dμ/dt| ≤ {worst_mu:.3e}");
    // Central differences with h = 1e-6 on O(1) quantities: ~1e-9 truncation/round-off.
    assert!(worst_e < 1e-8 && worst_mu < 1e-8, "{worst_e} {worst_mu}");
}

fn simulate(
    kind: JointKind,
    qr0: Vec<f64>,
    ur0: Vec<f64>,
    g: [f64; 3],
    t_end: f64,
    h: f64,
) -> (f64, f64, f64, f64, f64) {
    let s = Setup::new(kind, g);
    let spring = if kind == JointKind::Spherical {
        0.0
    } else {
        2.0
    };
    let dae = EphsDae::new(assemble(&s.system(spring, 0.3)).unwrap(), THETA0).unwrap();
    let mut y0 = s.state(
        &dae,
        [0.2, -0.1, 0.3, 0.5, 0.0, 1.0],
        &qr0,
        [0.5, -1.0, 2.0, 0.3, 0.2, -0.1],
        &ur0,
    );
    dae.make_consistent(0.0, &mut y0).unwrap();
    let e0 = dae.total_energy(&y0);
    let mu0 = s.momentum(&dae, &y0);
    let rs = dae.state_range("j.env.s").unwrap().start;
    let (mut dmu, mut drift) = (0.0f64, 0.0f64);
    let mut bal = Balance::new(e0, rs, &y0);
    LieMidpoint::new(&dae, LieMidpointParams::with_step(h))
        .unwrap()
        .run(0.0, &y0, t_end, &mut |t: f64, y: &[f64]| {
            bal.observe(t, dae.total_energy(y), y);
            let mu = s.momentum(&dae, y);
            for k in 0..6 {
                dmu = dmu.max((mu[k] - mu0[k]).abs());
            }
            drift = drift.max(s.drift(&dae, y));
        })
        .unwrap();
    (bal.de, dmu, drift, bal.ds_min, bal.s_prev - y0[rs])
}

#[test]
fn revolute_joint_with_friction_midpoint() {
    let (de, dmu, drift, ds_min, ds) = simulate(
        JointKind::Revolute,
        vec![0.3],
        vec![1.5],
        [0.0; 3],
        5.0,
        0.005,
    );
    println!(
        "revolute, g = 0, midpoint h = 5e-3, 1000 steps: |Δ(E_mech + θ0 s)|/E {de:.3e}, |Δμ| {dmu:.3e}, drift {drift:.3e}, min Δs {ds_min:.3e}, s(5) − s(0) {ds:.3e}"
    );
    assert!(de < 1e-11, "{de}");
    assert!(ds_min >= 0.0 && ds > 1e-4);
    // Velocity-level constraints only (index 2): the position constraint drifts at the
    // order of the midpoint error, O(h²) per unit time.
    assert!(drift < 1e-3, "{drift}");
    // Spatial momentum is conserved while the position constraint holds (pitfall 9);
    // its error follows the drift.
    assert!(dmu < 1e-2, "{dmu}");
    let (de, _, drift2, _, _) = simulate(
        JointKind::Revolute,
        vec![0.3],
        vec![1.5],
        [0.0; 3],
        5.0,
        0.0025,
    );
    println!(
        "revolute, h = 2.5e-3: drift {drift2:.3e} (ratio {:.2}), energy {de:.3e}",
        drift / drift2
    );
    assert!(drift / drift2 > 3.0, "drift should be O(h²)");
}

#[test]
fn revolute_joint_with_gravity_radau5() {
    let s = Setup::new(JointKind::Revolute, [0.0, 0.0, 9.81]);
    let dae = EphsDae::new(assemble(&s.system(2.0, 0.3)).unwrap(), THETA0).unwrap();
    let mut y0 = s.state(
        &dae,
        [0.2, -0.1, 0.3, 0.5, 0.0, 1.0],
        &[0.3],
        [0.5, -1.0, 2.0, 0.3, 0.2, -0.1],
        &[1.5],
    );
    dae.make_consistent(0.0, &mut y0).unwrap();
    let e0 = dae.total_energy(&y0);
    let mu0 = s.momentum(&dae, &y0);
    let rs = dae.state_range("j.env.s").unwrap().start;
    let ts: Vec<f64> = (0..=50).map(|k| 0.04 * k as f64).collect();
    let (mut drift, mut dmu_h) = (0.0f64, 0.0f64);
    let mut bal = Balance::new(e0, rs, &y0);
    let sol = radau(&dae, &y0, 2.0, (1e-9, 1e-9), &ts, |t: f64, y: &[f64]| {
        bal.observe(t, dae.total_energy(y), y);
        drift = drift.max(s.drift(&dae, y));
        let mu = s.momentum(&dae, y);
        // With gravity along e3: linear x, y and angular z are conserved; linear z
        // changes at −(m1 + m2)·9.81.
        dmu_h = dmu_h
            .max((mu[3] - mu0[3]).abs())
            .max((mu[4] - mu0[4]).abs())
            .max((mu[2] - mu0[2]).abs())
            .max((mu[5] - (mu0[5] - 3.0 * 9.81 * t)).abs());
    });
    let (de, ds_min) = (bal.de, bal.ds_min);
    println!(
        "revolute + gravity, Radau5 rtol 1e-9: |ΔE|/E {de:.3e}, drift {drift:.3e}, momentum error {dmu_h:.3e}, min Δs {ds_min:.3e}, steps {}",
        sol.stats.steps
    );
    assert!(de < 1e-7, "{de}");
    assert!(drift < 1e-6 && dmu_h < 1e-6, "{drift} {dmu_h}");
    assert!(ds_min > -1e-12);
}

#[test]
fn spherical_joint_relative_motion_stays_in_subgroup() {
    // Spherical pair: the joint frames keep a common origin (translation part of the
    // relative pose (q1 o1)⁻¹ q2 o2 stays zero up to the drift), energy is conserved.
    let (de, dmu, drift, ds_min, ds) = simulate(
        JointKind::Spherical,
        phlex_ephs::library::joint::spherical_coords([0.2, -0.3, 0.4]),
        vec![1.0, -0.5, 2.0],
        [0.0; 3],
        3.0,
        0.005,
    );
    println!(
        "spherical, midpoint h = 5e-3: |ΔE|/E {de:.3e}, |Δμ| {dmu:.3e}, drift {drift:.3e}, min Δs {ds_min:.3e}, Δs {ds:.3e}"
    );
    assert!(
        de < 1e-11 && drift < 1e-3 && ds_min >= 0.0 && ds > 0.0,
        "{de} {drift}"
    );
}

#[test]
fn every_lower_pair_conserves_energy_and_stays_in_its_subgroup() {
    // Each pair (summary §11): the relative pose of the joint frames (q1 o1)⁻¹ q2 o2 stays
    // in the subgroup I(G̃) up to the O(h²) drift of the index-2 formulation, E_mech + θ0 s
    // is conserved to Newton tolerance and the entropy never decreases.
    // Revolute and spherical pairs have their own tests above.
    let cases = lower_pair_cases()
        .into_iter()
        .filter(|(k, _, _)| !matches!(k, JointKind::Revolute | JointKind::Spherical));
    for (kind, qr, ur) in cases {
        let (de, dmu, drift, ds_min, ds) = simulate(kind, qr, ur, [0.0; 3], 2.0, 0.005);
        println!(
            "{}: |ΔE|/E {de:.3e}, |Δμ| {dmu:.3e}, drift {drift:.3e}, min Δs {ds_min:.3e}, Δs {ds:.3e}",
            kind.name()
        );
        assert!(
            de < 1e-11 && drift < 1e-3 && ds_min >= 0.0,
            "{}: {de} {drift} {ds_min}",
            kind.name()
        );
    }
}
