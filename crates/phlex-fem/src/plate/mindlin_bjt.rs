//! Mindlin–Reissner plate, Bécache–Joly–Tsogka (BJT) mixed discretization with strongly
//! symmetric moments on rectangular tensor-product grids (thesis 004 §7.2.1.1, weak form
//! (7.10), spaces (7.11); summary §3.3, §5.1.2, Tables B.6–B.8).
//!
//! Velocity-control weak form (7.10) (the sign of the $\langle v_\gamma, e_\theta\rangle$
//! term is the one of $\partial_t\mathbf q = K_{sh}Gb(\nabla e_w - e_\theta)$; the thesis
//! prints `+`, which would make $J$ non-skew):
//! $$\begin{aligned}
//! \langle v_w, \rho b\,\partial_t e_w\rangle &= \langle v_w, \operatorname{div}e_\gamma\rangle + \langle v_w, f\rangle,\\
//! \langle v_\theta, \tfrac{\rho b^3}{12}\partial_t e_\theta\rangle &= \langle v_\theta, \operatorname{Div}\mathbf E_\kappa + e_\gamma\rangle + \langle v_\theta, \tau\rangle,\\
//! \langle \mathbf V_\kappa, \mathcal C_b\partial_t\mathbf E_\kappa\rangle &= -\langle\operatorname{Div}\mathbf V_\kappa, e_\theta\rangle,\\
//! \langle v_\gamma, C_s\partial_t e_\gamma\rangle &= -\langle\operatorname{div}v_\gamma, e_w\rangle - \langle v_\gamma, e_\theta\rangle,
//! \end{aligned}$$
//! so the clamped condition $e_w = 0$, $e_\theta = 0$ on $\partial\Omega$ is natural (no
//! boundary terms), $J$ is skew and the only port is the distributed load.
//!
//! Spaces (7.11) on a grid of rectangles $[x_{i}, x_{i+1}]\times[y_j, y_{j+1}]$, built as
//! in Firedrake's extruded meshes from 1D Lagrange spaces ([`crate::element2d_quad`]):
//! $e_w, e_{\theta_x}, e_{\theta_y} \in DQ_{k-1} = \mathrm{DG}_{k-1}\otimes\mathrm{DG}_{k-1}$;
//! $m_{12} \in Q_k = \mathrm{CG}_k\otimes\mathrm{CG}_k$; $(m_{11}, m_{22})$ and $e_\gamma$
//! in the rectangular Raviart–Thomas space $\mathrm{RTCF}_k = (\mathrm{CG}_k\otimes
//! \mathrm{DG}_{k-1})\times(\mathrm{DG}_{k-1}\otimes\mathrm{CG}_k)$ (the thesis's
//! "BDM_k on squares"; `HDiv(TensorProductElement)` on extruded meshes gives this space,
//! and it is the original BJT family: summary §3.3 note). Every matrix is a Kronecker
//! product of 1D mass matrices $\int s_i t_j$ and derivative matrices $\int s_i t_j'$.
//!
//! Reproduction (tests/plate_mindlin_bjt.rs, thesis set-up: nodal initial data,
//! Crank–Nicolson, Δt = h/10): Tables B.6–B.8 are matched within 2.7 % for $e_w$,
//! $e_\theta$, $e_\gamma$ (k = 1, 2; k = 3 with one outlier row) and, for k = 2, also for
//! $\mathbf E_\kappa$ measured on its $H(\mathrm{div})$ part $(m_{11}, m_{22})$
//! ([`BjtErrorForms::errors_detailed`]). **Erratum:** Table B.8 (k = 3) was computed on
//! meshes with twice the printed $1/h$ (as Table B.15 of the CGDG study).
//!
//! State order: block `e_w` ($w$), `e_theta` ($\theta_x$, $\theta_y$), `E_kappa`
//! ($m_{11}$, $m_{12}$, $m_{22}$), `e_gamma` ($\gamma_x$, $\gamma_y$), each scalar field
//! numbered $i_y n_x + i_x$ over its 1D global DOFs.
use crate::element2d_quad::Lagrange1d;
use crate::error::{require_positive, FemError};
use crate::mesh2d::Fem2dError;
use crate::plate::mindlin::{MindlinExact, MindlinLoadProfile, MindlinParams};
use crate::quadrature::GaussLegendre;
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet, VarBlock};

/// Quadrature points per direction for loads and error forms (exact to degree 19: the
/// manufactured solution is of degree 12 per direction times a basis of degree ≤ 3).
const LOAD_POINTS: usize = 10;

/// A 1D global space on a partition: continuous (CG) or discontinuous (DG) Lagrange.
#[derive(Debug, Clone)]
struct Space1 {
    cont: bool,
    basis: Lagrange1d,
    breaks: Vec<f64>,
}

impl Space1 {
    fn n_cells(&self) -> usize {
        self.breaks.len() - 1
    }
    fn k(&self) -> usize {
        self.basis.degree()
    }
    fn n_dofs(&self) -> usize {
        if self.cont {
            self.n_cells() * self.k() + 1
        } else {
            self.n_cells() * (self.k() + 1)
        }
    }
    fn dof(&self, cell: usize, i: usize) -> usize {
        if self.cont {
            cell * self.k() + i
        } else {
            cell * (self.k() + 1) + i
        }
    }
    /// Physical node of every global DOF.
    fn node_coords(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.n_dofs()];
        for c in 0..self.n_cells() {
            let (a, b) = (self.breaks[c], self.breaks[c + 1]);
            for (i, &t) in self.basis.nodes().iter().enumerate() {
                out[self.dof(c, i)] = a + t * (b - a);
            }
        }
        out
    }
}

/// A scalar field of the plane.
type ScalarFn<'a> = &'a dyn Fn([f64; 2]) -> f64;

/// Sparse 1D matrix as a list of non-zeros.
type Sparse1 = Vec<(usize, usize, f64)>;

/// 1D matrix $\int s_i t_j$ (`deriv`: $\int s_i t_j'$) of two spaces on the same partition.
#[allow(clippy::needless_range_loop)]
fn matrix1(s: &Space1, t: &Space1, deriv: bool) -> Sparse1 {
    let q = GaussLegendre::new(s.k() + t.k() + 2).expect("small rule");
    let (ns, nt) = (s.basis.len(), t.basis.len());
    let mut out: std::collections::BTreeMap<(usize, usize), f64> = Default::default();
    let (mut vs, mut ds, mut vt, mut dt) = ([0.0; 9], [0.0; 9], [0.0; 9], [0.0; 9]);
    for c in 0..s.n_cells() {
        let hc = s.breaks[c + 1] - s.breaks[c];
        let mut loc = [[0.0f64; 9]; 9];
        for (&x, &w) in q.points.iter().zip(&q.weights) {
            s.basis.eval(x, &mut vs[..ns], &mut ds[..ns]);
            t.basis.eval(x, &mut vt[..nt], &mut dt[..nt]);
            for i in 0..ns {
                for j in 0..nt {
                    loc[i][j] += if deriv {
                        w * vs[i] * dt[j]
                    } else {
                        w * hc * vs[i] * vt[j]
                    };
                }
            }
        }
        for i in 0..ns {
            for j in 0..nt {
                if loc[i][j] != 0.0 {
                    *out.entry((s.dof(c, i), t.dof(c, j))).or_default() += loc[i][j];
                }
            }
        }
    }
    out.into_iter()
        .filter(|(_, v)| v.abs() > 0.0)
        .map(|((i, j), v)| (i, j, v))
        .collect()
}

/// The eight scalar fields of the state, in order.
const FIELDS: [(bool, bool); 8] = [
    (false, false), // w
    (false, false), // theta_x
    (false, false), // theta_y
    (true, false),  // m11
    (true, true),   // m12
    (false, true),  // m22
    (true, false),  // gamma_x
    (false, true),  // gamma_y
];
const W: usize = 0;
const TX: usize = 1;
const TY: usize = 2;
const M11: usize = 3;
const M12: usize = 4;
const M22: usize = 5;
const GX: usize = 6;
const GY: usize = 7;

/// Builder of the BJT Mindlin plate on a rectangular grid, clamped on the whole boundary
/// (natural in the velocity-control form), with distributed load ports.
pub struct MindlinBjt {
    params: MindlinParams,
    xs: Vec<f64>,
    ys: Vec<f64>,
    degree: usize,
    loads: Vec<(String, MindlinLoadProfile)>,
}

impl MindlinBjt {
    /// Grid with breakpoints `xs` × `ys` (strictly increasing, at least 2 each) and degree
    /// `k ∈ {1, 2, 3}`. Errors name the offending parameter or breakpoint.
    pub fn new(
        params: MindlinParams,
        xs: Vec<f64>,
        ys: Vec<f64>,
        degree: usize,
    ) -> Result<Self, Fem2dError> {
        params.validate()?;
        if !(1..=3).contains(&degree) {
            return Err(FemError::UnsupportedDegree {
                what: "BJT Mindlin degree k".into(),
                degree,
                supported: "1..=3".into(),
            }
            .into());
        }
        for (name, b) in [("xs", &xs), ("ys", &ys)] {
            if b.len() < 2 {
                return Err(FemError::InvalidParameter {
                    name: format!("{name} (grid breakpoints)"),
                    value: b.len() as f64,
                    requirement: "at least 2 breakpoints".into(),
                }
                .into());
            }
            for i in 1..b.len() {
                if !(b[i] > b[i - 1] && b[i].is_finite() && b[i - 1].is_finite()) {
                    return Err(FemError::InvalidParameter {
                        name: format!("{name}[{i}]"),
                        value: b[i],
                        requirement: format!("finite and > {name}[{}] = {}", i - 1, b[i - 1]),
                    }
                    .into());
                }
            }
        }
        Ok(Self {
            params,
            xs,
            ys,
            degree,
            loads: Vec::new(),
        })
    }

    /// The rectangle $[0, l_x]\times[0, l_y]$ with `nx × ny` equal cells.
    pub fn rectangle(
        params: MindlinParams,
        lx: f64,
        ly: f64,
        nx: usize,
        ny: usize,
        degree: usize,
    ) -> Result<Self, Fem2dError> {
        require_positive("lx", lx)?;
        require_positive("ly", ly)?;
        for (name, n) in [("nx", nx), ("ny", ny)] {
            if n == 0 {
                return Err(FemError::InvalidParameter {
                    name: name.into(),
                    value: 0.0,
                    requirement: format!("{name} >= 1"),
                }
                .into());
            }
        }
        let br = |l: f64, n: usize| (0..=n).map(|i| l * i as f64 / n as f64).collect();
        Self::new(params, br(lx, nx), br(ly, ny), degree)
    }

    /// Adds a distributed load port `name` (dimension 1): input $a(t)$ applies the force
    /// density $a f(x, y)$ and torque density $a\tau(x, y)$ of `profile`.
    pub fn load(mut self, name: &str, profile: MindlinLoadProfile) -> Self {
        self.loads.push((name.to_string(), profile));
        self
    }

    /// Assembles the system (module docs).
    pub fn build(&self) -> Result<MindlinBjtModel, Fem2dError> {
        let p = &self.params;
        let k = self.degree;
        let mk = |cont: bool, br: &Vec<f64>| -> Result<Space1, Fem2dError> {
            Ok(Space1 {
                cont,
                basis: Lagrange1d::new(if cont { k } else { k - 1 })?,
                breaks: br.clone(),
            })
        };
        // [dg, cg] per axis
        let sx = [mk(false, &self.xs)?, mk(true, &self.xs)?];
        let sy = [mk(false, &self.ys)?, mk(true, &self.ys)?];
        let dims: Vec<usize> = FIELDS
            .iter()
            .map(|&(cx, cy)| sx[cx as usize].n_dofs() * sy[cy as usize].n_dofs())
            .collect();
        let mut offsets = vec![0usize; 9];
        for f in 0..8 {
            offsets[f + 1] = offsets[f] + dims[f];
        }
        let n = offsets[8];
        // 1D matrices indexed [cont_s][cont_t]
        let m1 = |s: &[Space1; 2], deriv: bool| -> [[Sparse1; 2]; 2] {
            [
                [matrix1(&s[0], &s[0], deriv), matrix1(&s[0], &s[1], deriv)],
                [matrix1(&s[1], &s[0], deriv), matrix1(&s[1], &s[1], deriv)],
            ]
        };
        let (mx, dx) = (m1(&sx, false), m1(&sx, true));
        let (my, dy) = (m1(&sy, false), m1(&sy, true));
        let nxd = |f: usize| sx[FIELDS[f].0 as usize].n_dofs();
        // pushes c · (A_x ⊗ A_y) into block (row field, col field), optionally also
        // −c · transpose into (col, row)
        let kron = |t: &mut Triplets,
                    r: usize,
                    c: usize,
                    ax: &Sparse1,
                    ay: &Sparse1,
                    scale: f64,
                    skew: bool| {
            let (nr, nc) = (nxd(r), nxd(c));
            for &(iy, jy, vy) in ay {
                for &(ix, jx, vx) in ax {
                    let row = offsets[r] + iy * nr + ix;
                    let col = offsets[c] + jy * nc + jx;
                    let v = scale * vx * vy;
                    t.push(row, col, v);
                    if skew {
                        t.push(col, row, -v);
                    }
                }
            }
        };
        let (d, g) = (0usize, 1usize); // dg, cg indices
        let mut e = Triplets::new(n, n);
        let rb = p.rho * p.h;
        let it = p.rho * p.h.powi(3) / 12.0;
        kron(&mut e, W, W, &mx[d][d], &my[d][d], rb, false);
        kron(&mut e, TX, TX, &mx[d][d], &my[d][d], it, false);
        kron(&mut e, TY, TY, &mx[d][d], &my[d][d], it, false);
        let a = 12.0 / (p.E * p.h.powi(3));
        kron(&mut e, M11, M11, &mx[g][g], &my[d][d], a, false);
        kron(&mut e, M22, M22, &mx[d][d], &my[g][g], a, false);
        kron(&mut e, M11, M22, &mx[g][d], &my[d][g], -a * p.nu, false);
        kron(&mut e, M22, M11, &mx[d][g], &my[g][d], -a * p.nu, false);
        kron(
            &mut e,
            M12,
            M12,
            &mx[g][g],
            &my[g][g],
            2.0 * a * (1.0 + p.nu),
            false,
        );
        let cs = 1.0 / (p.k_sh * p.shear_modulus() * p.h);
        kron(&mut e, GX, GX, &mx[g][g], &my[d][d], cs, false);
        kron(&mut e, GY, GY, &mx[d][d], &my[g][g], cs, false);
        let mut j = Triplets::new(n, n);
        // ⟨v_w, div γ⟩
        kron(&mut j, W, GX, &dx[d][g], &my[d][d], 1.0, true);
        kron(&mut j, W, GY, &mx[d][d], &dy[d][g], 1.0, true);
        // ⟨v_θ, Div M⟩: (∂x m11 + ∂y m12, ∂x m12 + ∂y m22)
        kron(&mut j, TX, M11, &dx[d][g], &my[d][d], 1.0, true);
        kron(&mut j, TX, M12, &mx[d][g], &dy[d][g], 1.0, true);
        kron(&mut j, TY, M12, &dx[d][g], &my[d][g], 1.0, true);
        kron(&mut j, TY, M22, &mx[d][d], &dy[d][g], 1.0, true);
        // ⟨v_θ, γ⟩
        kron(&mut j, TX, GX, &mx[d][g], &my[d][d], 1.0, true);
        kron(&mut j, TY, GY, &mx[d][d], &my[d][g], 1.0, true);
        let grid = Grid { sx, sy, offsets };
        // load ports
        let mut b = Triplets::new(n, self.loads.len());
        let mut ports = Vec::new();
        for (col, (name, prof)) in self.loads.iter().enumerate() {
            let vw = grid.project_rhs(W, &|x| prof(x).0);
            let vx = grid.project_rhs(TX, &|x| prof(x).1[0]);
            let vy = grid.project_rhs(TY, &|x| prof(x).1[1]);
            for (f, v) in [(W, vw), (TX, vx), (TY, vy)] {
                for (i, val) in v.into_iter().enumerate() {
                    if val != 0.0 {
                        b.push(grid.offsets[f] + i, col, val);
                    }
                }
            }
            ports.push(Port::new(
                name.clone(),
                1,
                "amplitude a(t) of the distributed force a f(x, y) [N/m²] and torque a τ(x, y) [N m/m²] per unit profile",
                "power-conjugate output ∫ (f e_w + τ·e_θ) dΩ [W per unit amplitude]",
            ));
        }
        let o = &grid.offsets;
        let blocks = vec![
            VarBlock::differential("e_w", "vertical velocity, DQ_{k-1} [m/s]", o[1] - o[0]),
            VarBlock::differential(
                "e_theta",
                "rotation rates (x, y), DQ_{k-1}² [rad/s]",
                o[3] - o[1],
            ),
            VarBlock::differential(
                "E_kappa",
                "bending moments m11 (CG_k⊗DG_{k-1}), m12 (Q_k), m22 (DG_{k-1}⊗CG_k) [N m/m]",
                o[6] - o[3],
            ),
            VarBlock::differential("e_gamma", "shear forces, RTCF_k [N/m]", o[8] - o[6]),
        ];
        let system = LinearPhSystem::new(
            e.build(),
            j.build(),
            sparse::zeros(n, n),
            b.build(),
            PortSet::from_ports(ports)?,
            blocks,
        )?;
        Ok(MindlinBjtModel {
            params: *p,
            degree: k,
            grid,
            system,
        })
    }
}

/// Tensor-product grid data shared by the model's helpers.
#[derive(Debug, Clone)]
struct Grid {
    /// 1D spaces along x: [DG_{k-1}, CG_k].
    sx: [Space1; 2],
    /// 1D spaces along y.
    sy: [Space1; 2],
    /// Start of each scalar field in the state (9 entries).
    offsets: Vec<usize>,
}

impl Grid {
    fn spaces(&self, f: usize) -> (&Space1, &Space1) {
        let (cx, cy) = FIELDS[f];
        (&self.sx[cx as usize], &self.sy[cy as usize])
    }
    /// Calls `visit(cell-local dof list, quadrature points (x, weight, basis values))`
    /// per cell for field `f`: `visit(dofs, point, weight, values)`.
    fn for_each_point(&self, f: usize, mut visit: impl FnMut(&[usize], [f64; 2], f64, &[f64])) {
        let (s, t) = self.spaces(f);
        let q = GaussLegendre::new(LOAD_POINTS).expect("rule");
        let (ns, nt) = (s.basis.len(), t.basis.len());
        let nx = s.n_dofs();
        let (mut vs, mut ds, mut vt, mut dt) = ([0.0; 9], [0.0; 9], [0.0; 9], [0.0; 9]);
        let mut dofs = vec![0usize; ns * nt];
        let mut vals = vec![0.0; ns * nt];
        for cy in 0..t.n_cells() {
            let (y0, hy) = (t.breaks[cy], t.breaks[cy + 1] - t.breaks[cy]);
            for cx in 0..s.n_cells() {
                let (x0, hx) = (s.breaks[cx], s.breaks[cx + 1] - s.breaks[cx]);
                for iy in 0..nt {
                    for ix in 0..ns {
                        dofs[iy * ns + ix] = t.dof(cy, iy) * nx + s.dof(cx, ix);
                    }
                }
                for (&qy, &wy) in q.points.iter().zip(&q.weights) {
                    t.basis.eval(qy, &mut vt[..nt], &mut dt[..nt]);
                    for (&qx, &wx) in q.points.iter().zip(&q.weights) {
                        s.basis.eval(qx, &mut vs[..ns], &mut ds[..ns]);
                        for iy in 0..nt {
                            for ix in 0..ns {
                                vals[iy * ns + ix] = vs[ix] * vt[iy];
                            }
                        }
                        visit(
                            &dofs,
                            [x0 + qx * hx, y0 + qy * hy],
                            wx * wy * hx * hy,
                            &vals,
                        );
                    }
                }
            }
        }
    }
    /// $\int u\,\varphi_i$ over the basis of field `f`.
    fn project_rhs(&self, f: usize, u: &dyn Fn([f64; 2]) -> f64) -> Vec<f64> {
        let (s, t) = self.spaces(f);
        let mut out = vec![0.0; s.n_dofs() * t.n_dofs()];
        self.for_each_point(f, |dofs, x, w, v| {
            let ux = u(x) * w;
            for (&d, &vv) in dofs.iter().zip(v) {
                out[d] += ux * vv;
            }
        });
        out
    }
    /// Nodal interpolant of `u` in field `f`.
    fn interpolate(&self, f: usize, u: &dyn Fn([f64; 2]) -> f64) -> Vec<f64> {
        let (s, t) = self.spaces(f);
        let (xn, yn) = (s.node_coords(), t.node_coords());
        let mut out = Vec::with_capacity(xn.len() * yn.len());
        for &y in &yn {
            for &x in &xn {
                out.push(u([x, y]));
            }
        }
        out
    }
    /// Solves $G c = r$ for a DG ⊗ DG field (block diagonal Gram matrix, the Kronecker
    /// product of the 1D reference mass inverses scaled by the cell size).
    fn solve_dg_gram(&self, f: usize, r: &[f64]) -> Vec<f64> {
        let (s, t) = self.spaces(f);
        let inv = |sp: &Space1| -> Vec<Vec<f64>> {
            let n = sp.basis.len();
            let q = GaussLegendre::new(n + 1).expect("rule");
            let (mut v, mut d) = ([0.0; 9], [0.0; 9]);
            let mut a = vec![vec![0.0; 2 * n]; n];
            for (&x, &w) in q.points.iter().zip(&q.weights) {
                sp.basis.eval(x, &mut v[..n], &mut d[..n]);
                for i in 0..n {
                    for j in 0..n {
                        a[i][j] += w * v[i] * v[j];
                    }
                }
            }
            for (i, row) in a.iter_mut().enumerate() {
                row[n + i] = 1.0;
            }
            // Gauss–Jordan (SPD, no pivoting needed)
            for c in 0..n {
                let piv = a[c][c];
                for x in a[c].iter_mut() {
                    *x /= piv;
                }
                for rr in 0..n {
                    if rr != c {
                        let fct = a[rr][c];
                        let pc = a[c].clone();
                        for (x, y) in a[rr].iter_mut().zip(pc) {
                            *x -= fct * y;
                        }
                    }
                }
            }
            a.into_iter().map(|row| row[n..].to_vec()).collect()
        };
        let (ix, iy) = (inv(s), inv(t));
        let (ns, nt) = (s.basis.len(), t.basis.len());
        let nx = s.n_dofs();
        let mut out = vec![0.0; r.len()];
        for cy in 0..t.n_cells() {
            let hy = t.breaks[cy + 1] - t.breaks[cy];
            for cx in 0..s.n_cells() {
                let hx = s.breaks[cx + 1] - s.breaks[cx];
                for a in 0..nt {
                    for b in 0..ns {
                        let mut acc = 0.0;
                        for c in 0..nt {
                            for d in 0..ns {
                                acc += iy[a][c] * ix[b][d] * r[t.dof(cy, c) * nx + s.dof(cx, d)];
                            }
                        }
                        out[t.dof(cy, a) * nx + s.dof(cx, b)] = acc / (hx * hy);
                    }
                }
            }
        }
        out
    }
    /// Gram (L² mass) matrix of field `f` as a sparse matrix.
    fn gram(&self, f: usize) -> SparseMat {
        let (s, t) = self.spaces(f);
        let (ax, ay) = (matrix1(s, s, false), matrix1(t, t, false));
        let nx = s.n_dofs();
        let n = nx * t.n_dofs();
        let mut tr = Triplets::new(n, n);
        for &(iy, jy, vy) in &ay {
            for &(ix, jx, vx) in &ax {
                tr.push(iy * nx + ix, jy * nx + jx, vx * vy);
            }
        }
        tr.build()
    }
}

/// The assembled BJT Mindlin plate.
#[derive(Debug, Clone)]
pub struct MindlinBjtModel {
    params: MindlinParams,
    degree: usize,
    grid: Grid,
    system: LinearPhSystem,
}

/// Precomputed squared-$L^2$-error forms of the four fields against an exact solution
/// (e_w, e_θ with amplitude `a`, E_κ and e_γ with amplitude `b`):
/// $\|u_h - a u\|^2 = u_h^\top G u_h - 2a\,u_h^\top g + a^2\|u\|^2$ per scalar component.
#[derive(Debug, Clone)]
pub struct BjtErrorForms {
    /// Per scalar field: (state offset, Gram matrix, ∫ u φ, ∫ u², group, amplitude is b).
    parts: Vec<(usize, SparseMat, Vec<f64>, f64, usize, bool)>,
}

impl BjtErrorForms {
    /// $[\|e_w\|, \|e_\theta\|, \|\mathbf E_\kappa\|, \|e_\gamma\|]$ errors in $L^2$ of the
    /// state `e` against the exact profiles scaled by `a` (velocities) and `b` (stresses);
    /// the moment norm is the Frobenius one ($m_{11}^2 + 2m_{12}^2 + m_{22}^2$).
    pub fn errors(&self, e: &[f64], a: f64, b: f64) -> [f64; 4] {
        let d = self.errors_detailed(e, a, b);
        [d[0], d[1], (d[2] * d[2] + 2.0 * d[3] * d[3]).sqrt(), d[4]]
    }
    /// $[\|e_w\|, \|e_\theta\|, \|(m_{11}, m_{22})\|, \|m_{12}\|, \|e_\gamma\|]$ errors in
    /// $L^2$ (the moment error split into its $H(\mathrm{div})$ part and its $Q_k$ part).
    pub fn errors_detailed(&self, e: &[f64], a: f64, b: f64) -> [f64; 5] {
        let mut sq = [0.0f64; 5];
        for (off, g, rhs, c, group, is_b) in &self.parts {
            let u = &e[*off..*off + rhs.len()];
            let s = if *is_b { b } else { a };
            let quad = sparse::bilinear(u, g, u);
            let lin: f64 = u.iter().zip(rhs).map(|(x, y)| x * y).sum();
            sq[*group] += quad - 2.0 * s * lin + s * s * c;
        }
        sq.map(|x| x.max(0.0).sqrt())
    }
}

impl MindlinBjtModel {
    /// The port-Hamiltonian system $E\dot e = Je + Bu$.
    pub fn system(&self) -> &LinearPhSystem {
        &self.system
    }
    /// Consumes the model, returning its system.
    pub fn into_system(self) -> LinearPhSystem {
        self.system
    }
    /// Material data.
    pub fn params(&self) -> &MindlinParams {
        &self.params
    }
    /// Degree $k$.
    pub fn degree(&self) -> usize {
        self.degree
    }
    /// Number of states.
    pub fn n_states(&self) -> usize {
        self.system.E.nrows()
    }
    /// State offsets of the scalar fields $w, \theta_x, \theta_y, m_{11}, m_{12}, m_{22},
    /// \gamma_x, \gamma_y$ (9 entries, the last is the state size).
    pub fn field_offsets(&self) -> &[usize] {
        &self.grid.offsets
    }
    /// Initial state: nodal interpolants of `w` (into $e_w$) and `theta` (into
    /// $e_\theta$) at the equispaced DG nodes, moments and shear forces zero.
    pub fn interpolate_state(
        &self,
        w: &dyn Fn([f64; 2]) -> f64,
        theta: &dyn Fn([f64; 2]) -> [f64; 2],
    ) -> Vec<f64> {
        let mut e = vec![0.0; self.n_states()];
        let o = &self.grid.offsets;
        for (f, v) in [
            (W, self.grid.interpolate(W, w)),
            (TX, self.grid.interpolate(TX, &|x| theta(x)[0])),
            (TY, self.grid.interpolate(TY, &|x| theta(x)[1])),
        ] {
            e[o[f]..o[f + 1]].copy_from_slice(&v);
        }
        e
    }
    /// Initial state: $L^2$ projections of `w` (into $e_w$) and `theta` (into
    /// $e_\theta$) (cell by cell: the spaces are discontinuous), moments and shear forces
    /// zero.
    pub fn project_state(
        &self,
        w: &dyn Fn([f64; 2]) -> f64,
        theta: &dyn Fn([f64; 2]) -> [f64; 2],
    ) -> Vec<f64> {
        let mut e = vec![0.0; self.n_states()];
        let o = &self.grid.offsets;
        let tx = |x: [f64; 2]| theta(x)[0];
        let ty = |x: [f64; 2]| theta(x)[1];
        let fs: [(usize, ScalarFn); 3] = [(W, w), (TX, &tx), (TY, &ty)];
        for (f, u) in fs {
            let rhs = self.grid.project_rhs(f, u);
            let v = self.grid.solve_dg_gram(f, &rhs);
            e[o[f]..o[f + 1]].copy_from_slice(&v);
        }
        e
    }
    /// Error forms against `exact` ([`BjtErrorForms`]).
    pub fn error_forms(&self, exact: &(dyn Fn([f64; 2]) -> MindlinExact + Sync)) -> BjtErrorForms {
        let comp = |f: usize, u: &MindlinExact| -> f64 {
            match f {
                W => u.w,
                TX => u.theta[0],
                TY => u.theta[1],
                M11 => u.moments[0],
                M12 => u.moments[1],
                M22 => u.moments[2],
                GX => u.shear[0],
                _ => u.shear[1],
            }
        };
        let mut parts = Vec::new();
        for f in 0..8 {
            let rhs = self.grid.project_rhs(f, &|x| comp(f, &exact(x)));
            let mut c = 0.0;
            self.grid.for_each_point(f, |dofs, x, w, _| {
                // each point is visited once per cell (dofs unused)
                let _ = dofs;
                c += w * comp(f, &exact(x)).powi(2);
            });
            let group = match f {
                W => 0,
                TX | TY => 1,
                M11 | M22 => 2,
                M12 => 3,
                _ => 4,
            };
            parts.push((
                self.grid.offsets[f],
                self.grid.gram(f),
                rhs,
                c,
                group,
                f >= M11,
            ));
        }
        BjtErrorForms { parts }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plate::mindlin::benchmarks;

    /// Structure: J skew, E symmetric PSD; field sizes for k = 2 on 3 × 2 cells (1D:
    /// DG1 6 / CG2 7 along x, DG1 4 / CG2 5 along y); projection and nodal interpolation
    /// coincide for data in DQ_1 (x y, 1 + x); invalid degree and breakpoints rejected.
    #[test]
    fn structure_and_sizes() {
        let p = benchmarks::thesis_params();
        let m = MindlinBjt::rectangle(p, 1.5, 1.0, 3, 2, 2)
            .unwrap()
            .build()
            .unwrap();
        m.system().check(&Default::default()).unwrap();
        // DG1 along x: 6, CG2: 7; along y: 4, 5
        let o = m.field_offsets();
        let sizes: Vec<usize> = (0..8).map(|f| o[f + 1] - o[f]).collect();
        assert_eq!(sizes, vec![24, 24, 24, 28, 35, 30, 28, 30]);
        let a = m.interpolate_state(&|x| x[0] * x[1], &|x| [1.0 + x[0], x[1]]);
        let b = m.project_state(&|x| x[0] * x[1], &|x| [1.0 + x[0], x[1]]);
        let d = a
            .iter()
            .zip(&b)
            .map(|(x, y)| (x - y).abs())
            .fold(0.0, f64::max);
        assert!(d < 1e-13, "{d}");
        assert!(MindlinBjt::rectangle(p, 1.0, 1.0, 2, 2, 4).is_err());
        assert!(MindlinBjt::new(p, vec![0.0, 1.0, 0.5], vec![0.0, 1.0], 1).is_err());
    }
}
