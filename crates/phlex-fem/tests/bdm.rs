//! BDM_k and RT_k elements (`phlex_fem::element::triangle::bdm`): unisolvence of the global DOFs,
//! exact interpolation of polynomial fields, the commuting property of the divergence,
//! continuity of the normal component across interior edges, and a mixed Poisson
//! convergence study against an analytic solution (Brezzi–Fortin, "Mixed and hybrid finite
//! element methods", §III.3: ‖σ − σ_h‖ = O(h^{k+1}) for BDM_k × DG_{k−1}, O(h^k) for
//! RT_k × DG_{k−1}).
use phlex_core::sparse::Triplets;
use phlex_fem::element::triangle::bdm::{HdivFamily, HdivSpace};
use phlex_fem::mesh::CellGeometry;
use phlex_fem::mesh::{Diagonal, Mesh2d};
use phlex_fem::quadrature::polynomial::shifted_legendre;
use phlex_fem::quadrature::GaussLegendre;
use phlex_fem::quadrature::TriangleQuadrature;
use phlex_fem::space::{Family2d, Shape, Space2d};
use phlex_solve::linsolve::SparseLu;
use std::f64::consts::PI;

const FAMILIES: [HdivFamily; 2] = [HdivFamily::Bdm, HdivFamily::Rt];

/// A perturbed ("random-ish") mesh of the unit square: interior vertices of a 5 × 5 grid
/// moved by a deterministic pseudo-random offset of up to 0.3 h, both diagonals mixed and
/// vertex numbering scrambled so that local and global edge orientations disagree often.
fn perturbed_mesh() -> Mesh2d {
    let n = 5usize;
    let h = 1.0 / n as f64;
    let mut seed = 12345u64;
    let mut rnd = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) as f64 / (1u64 << 31) as f64) - 0.5
    };
    // scrambled numbering: vertex (i, j) gets index perm[(i, j)]
    let nv = (n + 1) * (n + 1);
    let perm: Vec<usize> = (0..nv).map(|i| (i * 17 + 5) % nv).collect();
    let mut verts = vec![[0.0; 2]; nv];
    for j in 0..=n {
        for i in 0..=n {
            let mut x = [i as f64 * h, j as f64 * h];
            if i > 0 && i < n && j > 0 && j < n {
                x[0] += 0.6 * h * rnd();
                x[1] += 0.6 * h * rnd();
            }
            verts[perm[j * (n + 1) + i]] = x;
        }
    }
    let id = |i: usize, j: usize| perm[j * (n + 1) + i];
    let mut tris = Vec::new();
    for j in 0..n {
        for i in 0..n {
            let (a, b, c, d) = (id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
            if (i + j) % 2 == 0 {
                tris.push([a, b, c]);
                tris.push([a, c, d]);
            } else {
                tris.push([a, b, d]);
                tris.push([b, c, d]);
            }
        }
    }
    Mesh2d::new(verts, tris).unwrap()
}

fn meshes() -> Vec<Mesh2d> {
    vec![
        perturbed_mesh(),
        Mesh2d::rectangle(0.0, 1.5, -0.5, 1.0, 3, 2, Diagonal::Left).unwrap(),
    ]
}

/// Global DOFs of edge `e` of the field `f` (physical moments against the globally oriented
/// Legendre polynomials), computed independently of the space's interpolation code.
fn edge_moments(m: &Mesh2d, e: usize, q: usize, f: &dyn Fn([f64; 2]) -> [f64; 2]) -> Vec<f64> {
    let gl = GaussLegendre::new(6).unwrap();
    let [a, b] = m.edges()[e];
    let (p, r) = (m.vertices()[a], m.vertices()[b]);
    let t = [r[0] - p[0], r[1] - p[1]];
    (0..q)
        .map(|j| {
            gl.points
                .iter()
                .zip(&gl.weights)
                .map(|(&s, &w)| {
                    let v = f([p[0] + s * t[0], p[1] + s * t[1]]);
                    w * (v[0] * t[1] - v[1] * t[0]) * shifted_legendre(j, s)
                })
                .sum()
        })
        .collect()
}

/// Unisolvence of the global DOFs: every global basis function (unit DOF vector), seen from
/// each cell in its support, has edge moments δ on the cell's edges (the global orientation
/// signs are right) and is reproduced by the interpolation operator (ℓ(φ_i) = δ for the
/// interior moments too). Round-off tolerance 1e-11.
#[test]
fn global_unisolvence() {
    let m = perturbed_mesh();
    for fam in FAMILIES {
        for k in 1..=3 {
            let s = HdivSpace::new(&m, fam, k).unwrap();
            let q = s.element().dofs_per_edge();
            for g in (0..s.n_dofs()).step_by(7) {
                let mut u = vec![0.0; s.n_dofs()];
                u[g] = 1.0;
                for t in 0..m.n_cells() {
                    let dofs = s.cell_dofs(t);
                    if !dofs.contains(&g) {
                        continue;
                    }
                    let geo = CellGeometry::new(&m, t);
                    let f = |x: [f64; 2]| s.eval_in_cell(&u, t, geo.inverse_map(x)).0;
                    for e in m.cell_edges(t) {
                        let mom = edge_moments(&m, e, q, &f);
                        for (j, v) in mom.iter().enumerate() {
                            let exp = if e * q + j == g { 1.0 } else { 0.0 };
                            assert!((v - exp).abs() < 1e-11, "{fam:?}{k} dof {g} edge {e}: {v}");
                        }
                    }
                }
            }
        }
    }
}

/// Interpolation reproduces polynomial fields of the space exactly: (P_k)² for BDM_k, and
/// (P_{k−1})² + x·(a homogeneous P_{k−1}) for RT_k; checked at 7 points per cell (1e-11).
#[test]
fn exact_interpolation_of_polynomials() {
    for m in meshes() {
        for fam in FAMILIES {
            for k in 1..=3usize {
                let kk = k as i32;
                let top = if fam == HdivFamily::Bdm { kk } else { kk - 1 };
                let f = move |x: [f64; 2]| {
                    let (a, b) = (x[0], x[1]);
                    let mut v = [0.3, -0.7];
                    if top >= 1 {
                        v[0] += 1.1 * a - 0.4 * b;
                        v[1] += 0.5 * a;
                        v[1] += 0.9 * b;
                    }
                    if top >= 2 {
                        v[0] += 0.8 * a * b - 0.3 * b * b;
                        v[1] += 0.6 * a * a;
                    }
                    if top >= 3 {
                        v[0] += 0.2 * a * a * b;
                        v[1] += -0.5 * b * b * b + 0.1 * a * b * b;
                    }
                    if fam == HdivFamily::Rt {
                        // x · p̃ with p̃ homogeneous of degree k − 1
                        let p = match k {
                            1 => 1.3,
                            2 => 0.7 * a - 1.2 * b,
                            _ => 0.4 * a * a - 0.9 * a * b + 0.5 * b * b,
                        };
                        v[0] += a * p;
                        v[1] += b * p;
                    }
                    v
                };
                let s = HdivSpace::new(&m, fam, k).unwrap();
                let u = s.interpolate(&f).unwrap();
                let q = TriangleQuadrature::exact_for_degree(5).unwrap();
                for t in 0..m.n_cells() {
                    let g = CellGeometry::new(&m, t);
                    for xh in &q.points {
                        let v = s.eval_in_cell(&u, t, *xh).0;
                        let e = f(g.map(*xh));
                        assert!(
                            (v[0] - e[0]).abs() < 1e-11 && (v[1] - e[1]).abs() < 1e-11,
                            "{fam:?}{k} cell {t}: {v:?} vs {e:?}"
                        );
                    }
                }
            }
        }
    }
}

/// Commuting property: the divergence of the interpolant of a degree-6 polynomial field
/// (outside every space tested, and integrated exactly by the interpolation's quadrature
/// rules), integrated over each cell, equals the outward flux of the field through the cell
/// boundary, i.e. ∫_T div u (divergence theorem + edge moment L_0), to round-off (1e-11);
/// for k ≥ 2 also
/// against linear weights, which the edge moments up to L_1 and the interior ∇P_1 moments
/// control (∫_T v div u_h = ∫_∂T v u·n − ∫_T ∇v·u, exact for v ∈ P_{k−1}).
#[test]
fn divergence_commutes() {
    let f = |x: [f64; 2]| {
        let (a, b) = (x[0], x[1]);
        [
            a.powi(4) * b * b - 2.0 * b.powi(5) + a,
            a.powi(3) * b.powi(3) + b.powi(4) * a,
        ]
    };
    let df = |x: [f64; 2]| {
        let (a, b) = (x[0], x[1]);
        4.0 * a.powi(3) * b * b + 1.0 + 3.0 * a.powi(3) * b * b + 4.0 * b.powi(3) * a
    };
    let q = TriangleQuadrature::exact_for_degree(20).unwrap();
    for m in meshes() {
        for fam in FAMILIES {
            for k in 1..=3 {
                let s = HdivSpace::new(&m, fam, k).unwrap();
                let u = s.interpolate(&f).unwrap();
                for t in 0..m.n_cells() {
                    let g = CellGeometry::new(&m, t);
                    // weights 1 and (k >= 2) x, y
                    let nw = if k >= 2 { 3 } else { 1 };
                    for wi in 0..nw {
                        let wfun = |x: [f64; 2]| match wi {
                            0 => 1.0,
                            1 => x[0],
                            _ => x[1],
                        };
                        let (mut lhs, mut rhs) = (0.0, 0.0);
                        for (xh, &w) in q.points.iter().zip(&q.weights) {
                            let x = g.map(*xh);
                            let (_, d) = s.eval_in_cell(&u, t, *xh);
                            lhs += w * g.det * wfun(x) * d;
                            // ∫ v div u = ∫ v div u (exact field): the projection property
                            rhs += w * g.det * wfun(x) * df(x);
                        }
                        assert!(
                            (lhs - rhs).abs() < 1e-11,
                            "{fam:?}{k} cell {t} weight {wi}: {lhs} vs {rhs}"
                        );
                    }
                }
            }
        }
    }
}

/// Normal continuity: the interpolant of a smooth field (and a random DOF vector) has the
/// same normal component from both cells of every interior edge (round-off: 1e-10 for
/// basis values of size ~1/h² = 25 and DOFs of size ≤ 1), while the
/// tangential component jumps.
#[test]
fn normal_continuity_on_perturbed_mesh() {
    let m = perturbed_mesh();
    let f = |x: [f64; 2]| [(3.0 * x[1]).cos() + x[0].powi(4), (x[0] - x[1]).exp()];
    for fam in FAMILIES {
        for k in 1..=3 {
            let s = HdivSpace::new(&m, fam, k).unwrap();
            let mut seed = 7u64;
            let random: Vec<f64> = (0..s.n_dofs())
                .map(|_| {
                    seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                    ((seed >> 33) as f64 / (1u64 << 31) as f64) - 0.5
                })
                .collect();
            for u in [s.interpolate(&f).unwrap(), random] {
                let mut max_t = 0.0f64;
                for e in 0..m.n_edges() {
                    if let (c0, Some(c1)) = m.edge_cells(e) {
                        let [a, b] = m.edges()[e];
                        let (p, r) = (m.vertices()[a], m.vertices()[b]);
                        let (tx, ty) = (r[0] - p[0], r[1] - p[1]);
                        for sp in [0.1, 0.37, 0.8] {
                            let x = [p[0] + sp * tx, p[1] + sp * ty];
                            let g0 = CellGeometry::new(&m, c0);
                            let g1 = CellGeometry::new(&m, c1);
                            let v0 = s.eval_in_cell(&u, c0, g0.inverse_map(x)).0;
                            let v1 = s.eval_in_cell(&u, c1, g1.inverse_map(x)).0;
                            let jn = (v0[0] - v1[0]) * ty - (v0[1] - v1[1]) * tx;
                            assert!(jn.abs() < 1e-10, "{fam:?}{k} edge {e}: normal jump {jn}");
                            let jt = (v0[0] - v1[0]) * tx + (v0[1] - v1[1]) * ty;
                            max_t = max_t.max(jt.abs());
                        }
                    }
                }
                assert!(max_t > 1e-6, "{fam:?}{k}: tangential component continuous?");
            }
        }
    }
}

/// Mixed Poisson σ = ∇u, div σ = f on the unit square, u = sin(πx) sin(πy) (u = 0 on the
/// boundary is the natural condition): (σ, τ) + (u, div τ) = 0, (div σ, v) = (f, v).
/// Returns ‖σ − σ_h‖_{L²} and ‖u − u_h‖_{L²}.
fn mixed_poisson(fam: HdivFamily, k: usize, n: usize) -> (f64, f64) {
    let m = Mesh2d::unit_square(n, Diagonal::Right).unwrap();
    let s = HdivSpace::new(&m, fam, k).unwrap();
    let d = Space2d::new(&m, Family2d::Dg(k - 1), Shape::Scalar).unwrap();
    let (ns, nd) = (s.n_dofs(), d.n_dofs());
    let q = TriangleQuadrature::exact_for_degree(2 * k + 4).unwrap();
    let (rv, rd) = s.element().tabulate(&q.points);
    let nl = s.n_local();
    let ndl = d.n_local();
    let mut t3 = Triplets::new(ns + nd, ns + nd);
    let mut rhs = vec![0.0; ns + nd];
    let (mut v, mut dv) = (vec![[0.0; 2]; nl], vec![0.0; nl]);
    let (mut pv, mut px, mut py) = (vec![0.0; ndl], vec![0.0; ndl], vec![0.0; ndl]);
    let u_ex = |x: [f64; 2]| (PI * x[0]).sin() * (PI * x[1]).sin();
    for t in 0..m.n_cells() {
        let g = CellGeometry::new(&m, t);
        let sd = s.cell_dofs(t);
        let dd = d.cell_dofs(t);
        for (iq, (xh, &w)) in q.points.iter().zip(&q.weights).enumerate() {
            let wq = w * g.det;
            s.map_basis(
                t,
                &g,
                &rv[iq * nl..(iq + 1) * nl],
                &rd[iq * nl..(iq + 1) * nl],
                &mut v,
                &mut dv,
            );
            d.element().eval(*xh, &mut pv, &mut px, &mut py);
            let f = -2.0 * PI * PI * u_ex(g.map(*xh));
            for i in 0..nl {
                for j in 0..nl {
                    t3.push(sd[i], sd[j], wq * (v[i][0] * v[j][0] + v[i][1] * v[j][1]));
                }
                for (a, &da) in dd.iter().enumerate() {
                    let c = wq * pv[a] * dv[i];
                    t3.push(sd[i], ns + da, c);
                    t3.push(ns + da, sd[i], c);
                }
            }
            for (a, &da) in dd.iter().enumerate() {
                rhs[ns + da] += wq * f * pv[a];
            }
        }
    }
    let a = t3.build();
    let mut lu = SparseLu::from_matrix("mixed Poisson", a.as_ref()).unwrap();
    lu.solve_in_place(&mut rhs).unwrap();
    let (sig, uh) = rhs.split_at(ns);
    let qe = TriangleQuadrature::exact_for_degree(2 * k + 6).unwrap();
    let (mut es, mut eu) = (0.0, 0.0);
    for t in 0..m.n_cells() {
        let g = CellGeometry::new(&m, t);
        for (xh, &w) in qe.points.iter().zip(&qe.weights) {
            let x = g.map(*xh);
            let sh = s.eval_in_cell(sig, t, *xh).0;
            let se = [
                PI * (PI * x[0]).cos() * (PI * x[1]).sin(),
                PI * (PI * x[0]).sin() * (PI * x[1]).cos(),
            ];
            es += w * g.det * ((sh[0] - se[0]).powi(2) + (sh[1] - se[1]).powi(2));
            d.element().eval(*xh, &mut pv, &mut px, &mut py);
            let u: f64 = d
                .cell_dofs(t)
                .iter()
                .zip(&pv)
                .map(|(&i, p)| uh[i] * p)
                .sum();
            eu += w * g.det * (u - u_ex(x)).powi(2);
        }
    }
    (es.sqrt(), eu.sqrt())
}

/// Convergence of σ_h: observed order log₂(e_{n}/e_{2n}) on the two finest meshes within
/// 0.15 of the theory (k + 1 for BDM_k, k for RT_k; u_h in DG_{k−1}: order k for both).
/// Meshes up to 16 × 16 (k = 1), 8 × 8 (k = 2, 3): pre-asymptotic effects are below 0.1.
#[test]
fn mixed_poisson_convergence() {
    for fam in FAMILIES {
        for k in 1..=3 {
            let ns: Vec<usize> = if k == 1 {
                vec![4, 8, 16]
            } else {
                vec![2, 4, 8]
            };
            let errs: Vec<(f64, f64)> = ns.iter().map(|&n| mixed_poisson(fam, k, n)).collect();
            let l = errs.len();
            let os = (errs[l - 2].0 / errs[l - 1].0).log2();
            let ou = (errs[l - 2].1 / errs[l - 1].1).log2();
            eprintln!("{fam:?}{k}: errors {errs:?}, orders σ {os:.3}, u {ou:.3}");
            let expect = match fam {
                HdivFamily::Bdm => k + 1,
                HdivFamily::Rt => k,
            } as f64;
            assert!(
                (os - expect).abs() < 0.15,
                "{fam:?}{k}: σ order {os} vs {expect}"
            );
            assert!(
                (ou - k as f64).abs() < 0.15,
                "{fam:?}{k}: u order {ou} vs {k}"
            );
        }
    }
}
