//! Hand-built linear pH test systems with closed-form solutions.
#![allow(dead_code, non_snake_case)]

use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};
use phlex_solve::Signal;

/// Fixed–free chain of `N` masses `m` and `N` springs `k` (spring 1 ties mass 1 to the wall).
///
/// State `e = (v_1..v_N, f_1..f_N)` (velocities, spring forces), `E = diag(m I, I/k)`,
/// `J = [[0, -Dᵀ], [D, 0]]` with `(D v)_j = v_j - v_{j-1}` (`v_0 = 0`),
/// `R = c · e_{v_N} e_{v_N}ᵀ` (a damper on the last mass), and one force port on mass `N`
/// (`B = e_{v_N}`, output = tip velocity) if `with_port`.
pub fn chain(N: usize, m: f64, k: f64, c: f64, with_port: bool) -> LinearPhSystem {
    let n = 2 * N;
    let mut e = Triplets::new(n, n);
    let mut j = Triplets::new(n, n);
    for i in 0..N {
        e.push(i, i, m);
        e.push(N + i, N + i, 1.0 / k);
        // f_i row: +v_i - v_{i-1}; v rows get the negative transpose.
        j.push(N + i, i, 1.0);
        j.push(i, N + i, -1.0);
        if i > 0 {
            j.push(N + i, i - 1, -1.0);
            j.push(i - 1, N + i, 1.0);
        }
    }
    let mut r = Triplets::new(n, n);
    r.push(N - 1, N - 1, c);
    let (B, ports) = if with_port {
        let mut b = Triplets::new(n, 1);
        b.push(N - 1, 0, 1.0);
        (
            b.build(),
            PortSet::from_ports(vec![Port::new("tip", 1, "force [N]", "velocity [m/s]")]).unwrap(),
        )
    } else {
        (sparse::zeros(n, 0), PortSet::new())
    };
    LinearPhSystem::new(
        e.build(),
        j.build(),
        r.build(),
        B,
        ports,
        vec![
            VarBlock::differential("v", "mass velocities [m/s]", N),
            VarBlock::differential("f", "spring forces [N]", N),
        ],
    )
    .unwrap()
}

/// Fixed-free chain frequencies ω_r = 2√(k/m) sin(θ_r/2), θ_r = (2r−1)π/(2N+1).
pub fn chain_theta(N: usize, r: usize) -> f64 {
    (2 * r - 1) as f64 * std::f64::consts::PI / (2 * N + 1) as f64
}

/// Exact state of the lossless fixed–free chain started in a superposition of modes:
/// `v_i(t) = Σ a_r sin(i θ_r) cos(ω_r t)`, `f_j(t) = Σ a_r (k/ω_r)(sin jθ_r − sin (j−1)θ_r) sin(ω_r t)`.
pub fn chain_modal_solution(N: usize, m: f64, k: f64, modes: &[(usize, f64)], t: f64) -> Vec<f64> {
    let mut e = vec![0.0; 2 * N];
    for &(r, a) in modes {
        let th = chain_theta(N, r);
        let w = 2.0 * (k / m).sqrt() * (0.5 * th).sin();
        for i in 1..=N {
            e[i - 1] += a * (i as f64 * th).sin() * (w * t).cos();
            let c = (k / w) * ((i as f64 * th).sin() - ((i - 1) as f64 * th).sin());
            e[N + i - 1] += a * c * (w * t).sin();
        }
    }
    e
}

/// The chain with an added multiplier fixing the velocity of mass `N` (index-2 constraint
/// `0 = −v_N`, force `λ` on mass `N`): `J[v_N, λ] = 1`, `J[λ, v_N] = −1`, `E[λ, λ] = 0`.
pub fn constrained_chain(N: usize, m: f64, k: f64) -> LinearPhSystem {
    let base = chain(N, m, k, 0.0, false);
    let n = 2 * N + 1;
    let grow = |a: &SparseMat| {
        let mut t = Triplets::new(n, n);
        t.push_block(0, 0, a, 1.0);
        t
    };
    let E = grow(&base.E).build();
    let mut J = grow(&base.J);
    J.push(N - 1, 2 * N, 1.0);
    J.push(2 * N, N - 1, -1.0);
    let mut blocks = base.blocks.clone();
    blocks.push(VarBlock::algebraic(
        "lambda",
        "constraint force on mass N [N]",
        1,
        2,
    ));
    LinearPhSystem::new(
        E,
        J.build(),
        sparse::zeros(n, n),
        sparse::zeros(n, 0),
        PortSet::new(),
        blocks,
    )
    .unwrap()
}

/// Lossless masses and springs with Lagrange multipliers, co-energy state `x = (v, f, λ)`:
/// `E = diag(masses, 1/springs, 0)` (one zero per multiplier, `B.nrows()` states in all),
/// `J` skew with the entries `J[r][c] = s`, `J[c][r] = −s` of `skew`, `R = 0`, input map
/// `B` with `ports`; the multipliers are index-2 algebraic variables.
pub fn mass_spring_dae(
    masses: &[f64],
    springs: &[f64],
    skew: &[(usize, usize, f64)],
    B: SparseMat,
    ports: Vec<Port>,
) -> LinearPhSystem {
    let n = B.nrows();
    let (nv, nf) = (masses.len(), springs.len());
    let mut e = Triplets::new(n, n);
    for (i, m) in masses.iter().enumerate() {
        e.push(i, i, *m);
    }
    for (i, k) in springs.iter().enumerate() {
        e.push(nv + i, nv + i, 1.0 / k);
    }
    let mut j = Triplets::new(n, n);
    for &(r, c, s) in skew {
        j.push(r, c, s);
        j.push(c, r, -s);
    }
    LinearPhSystem::new(
        e.build(),
        j.build(),
        sparse::zeros(n, n),
        B,
        PortSet::from_ports(ports).unwrap(),
        vec![
            VarBlock::differential("v", "velocities [m/s]", nv),
            VarBlock::differential("f", "spring forces [N]", nf),
            VarBlock::algebraic("lambda", "constraint forces [N]", n - nv - nf, 2),
        ],
    )
    .unwrap()
}

/// Single oscillator (mass `m`, spring `k`) with a force port on the mass.
pub fn oscillator(m: f64, k: f64) -> LinearPhSystem {
    chain(1, m, k, 0.0, true)
}

/// Relative max-norm difference.
pub fn rel_diff(a: &[f64], b: &[f64]) -> f64 {
    let num = a
        .iter()
        .zip(b)
        .fold(0.0f64, |s, (x, y)| s.max((x - y).abs()));
    let den = b.iter().fold(0.0f64, |s, y| s.max(y.abs()));
    num / den
}

/// A smooth force law `law` (an expression in `t`) plus a step from 0 to `step` at
/// `t_switch`: an input with a breakpoint inside a run.
pub fn switched_force(law: &str, t_switch: f64, step: f64) -> Signal {
    Signal::Sum(vec![
        Signal::expr(law).unwrap(),
        Signal::Step {
            t0: t_switch,
            before: 0.0,
            after: step,
        },
    ])
}
