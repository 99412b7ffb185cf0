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
//! in Firedrake's extruded meshes from 1D Lagrange spaces ([`crate::element::quad`]):
//! $e_w, e_{\theta_x}, e_{\theta_y} \in DQ_{k-1} = \mathrm{DG}_{k-1}\otimes\mathrm{DG}_{k-1}$;
//! $m_{12} \in Q_k = \mathrm{CG}_k\otimes\mathrm{CG}_k$; $(m_{11}, m_{22})$ and $e_\gamma$
//! in the thesis's "BDM_k on squares" ([`BjtHdivSpace`]). Its Firedrake script builds
//! that space as `BDM_quad = HDivElement(TensorProductElement(CG_k, DG_k)) +
//! HDivElement(TensorProductElement(DG_k, CG_k))`, i.e. $Q_k^{\mathrm{div}} =
//! (\mathrm{CG}_k\otimes\mathrm{DG}_k)\times(\mathrm{DG}_k\otimes\mathrm{CG}_k) =
//! Q_k^2\cap H(\mathrm{div})$, the original BJT space (summary §3.3 note) and our default;
//! the smaller rectangular Raviart–Thomas space $\mathrm{RTCF}_k = (\mathrm{CG}_k\otimes
//! \mathrm{DG}_{k-1})\times(\mathrm{DG}_{k-1}\otimes\mathrm{CG}_k)$ (the same script's
//! `RT_quad`, unused there) is [`BjtHdivSpace::Rtcf`]. Every matrix is a Kronecker product
//! of 1D mass matrices $\int s_i t_j$ and derivative matrices $\int s_i t_j'$.
//!
//! Reproduction (tests/plate_mindlin_bjt.rs, thesis set-up: nodal initial data,
//! Crank–Nicolson, Δt = h/10, t_f = 1 s, $\mathbf E_\kappa$ error in the Frobenius norm
//! $\int(\mathbf E_h - \mathbf E):(\mathbf E_h - \mathbf E)$ as the script's
//! `inner(·, ·) * dx`): with $Q_k^{\mathrm{div}}$ all four columns of Tables B.6–B.8 agree
//! within 0.8 % on every mesh up to 64 × 64 cells, orders within 0.01. With $\mathrm{RTCF}_k$ the kinematic columns
//! still agree within 3 % but $\mathbf E_\kappa$ is 29 % (k = 1, 1/h = 8) to 60 % too
//! large: the moment space, not the norm, the quadrature or the time stepping, caused the
//! former mismatch. **Erratum:** Table B.8 (k = 3) was computed on meshes with twice the
//! printed $1/h$ (the script runs k = 3 on the k = 1, 2 meshes but labels the rows with
//! the halved $1/h$; as Table B.15 of the CGDG study); and its $e_\theta$ at printed
//! $1/h = 16$ reads 2.05e-08 for 2.50e-08 (digit transposition: the printed orders 3.19,
//! 3.08 around it follow from 2.50e-08; we get 2.504e-08).
//!
//! Sampling for CLI runners and VTK output ([`crate::io::vtk::Vtu::new_quad`]):
//! [`MindlinBjtModel::quad_mesh`], [`MindlinBjtModel::evaluate`],
//! [`MindlinBjtModel::velocity_at`], [`MindlinBjtModel::vertex_values`],
//! [`MindlinBjtModel::cell_values`], [`MindlinBjtModel::energy_split`].
//!
//! State order: block `e_w` ($w$), `e_theta` ($\theta_x$, $\theta_y$), `E_kappa`
//! ($m_{11}$, $m_{12}$, $m_{22}$), `e_gamma` ($\gamma_x$, $\gamma_y$), each scalar field
//! numbered $i_y n_x + i_x$ over its 1D global DOFs.
use crate::error::{require_count, require_degree, require_positive, FemError};
use crate::error::{require_len, Fem2dError};
use crate::mesh::quad::QuadMesh;
use crate::models::model::lossless_system;
use crate::models::plate::mindlin::{MindlinExact, MindlinLoadProfile, MindlinParams};
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::polynomial::Lagrange1d;
use phlex_core::sparse::{self, SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, VarBlock};

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

/// The $H(\mathrm{div})$ space of $(m_{11}, m_{22})$ and $e_\gamma$ on a rectangle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BjtHdivSpace {
    /// The thesis's "BDM_k on squares" as built by its Firedrake code (`BDM_quad =
    /// HDivElement(CG_k ⊗ DG_k) + HDivElement(DG_k ⊗ CG_k)` on the extruded mesh):
    /// $(\mathrm{CG}_k\otimes\mathrm{DG}_k)\times(\mathrm{DG}_k\otimes\mathrm{CG}_k) =
    /// Q_k^2\cap H(\mathrm{div})$, the original BJT space $Q_k^{\mathrm{div}}$ of [BJT00,
    /// BJT01] (thesis 004 (7.11)). Reproduces Tables B.6–B.8.
    #[default]
    QkDiv,
    /// The rectangular Raviart–Thomas space $\mathrm{RTCF}_k = (\mathrm{CG}_k\otimes
    /// \mathrm{DG}_{k-1})\times(\mathrm{DG}_{k-1}\otimes\mathrm{CG}_k)$ (the thesis
    /// script's `RT_quad`): fewer states, $\operatorname{div}$ onto $DQ_{k-1}$ exactly.
    Rtcf,
}

/// 1D space kinds per axis: DG_{k-1}, CG_k, DG_k.
const DG: usize = 0;
const CG: usize = 1;
const DGK: usize = 2;

/// The (x, y) 1D space kinds of the eight scalar fields of the state, in order
/// ($w, \theta_x, \theta_y, m_{11}, m_{12}, m_{22}, \gamma_x, \gamma_y$).
fn field_kinds(space: BjtHdivSpace) -> [(usize, usize); 8] {
    let t = match space {
        BjtHdivSpace::QkDiv => DGK,
        BjtHdivSpace::Rtcf => DG,
    };
    [
        (DG, DG), // w
        (DG, DG), // theta_x
        (DG, DG), // theta_y
        (CG, t),  // m11
        (CG, CG), // m12
        (t, CG),  // m22
        (CG, t),  // gamma_x
        (t, CG),  // gamma_y
    ]
}
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
    space: BjtHdivSpace,
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
        require_degree("BJT Mindlin degree k", degree, 1..=3)?;
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
            space: BjtHdivSpace::default(),
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
        require_count("nx", nx, 1)?;
        require_count("ny", ny, 1)?;
        let br = |l: f64, n: usize| (0..=n).map(|i| l * i as f64 / n as f64).collect();
        Self::new(params, br(lx, nx), br(ly, ny), degree)
    }

    /// Selects the $H(\mathrm{div})$ space of $(m_{11}, m_{22})$ and $e_\gamma$ (default
    /// [`BjtHdivSpace::QkDiv`], the thesis's).
    pub fn hdiv_space(mut self, space: BjtHdivSpace) -> Self {
        self.space = space;
        self
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
        let kinds = field_kinds(self.space);
        let mk = |kind: usize, br: &Vec<f64>| -> Result<Space1, Fem2dError> {
            Ok(Space1 {
                cont: kind == CG,
                basis: Lagrange1d::new(match kind {
                    DG => k - 1,
                    _ => k,
                })?,
                breaks: br.clone(),
            })
        };
        // [DG_{k-1}, CG_k, DG_k] per axis
        let sx = [mk(DG, &self.xs)?, mk(CG, &self.xs)?, mk(DGK, &self.xs)?];
        let sy = [mk(DG, &self.ys)?, mk(CG, &self.ys)?, mk(DGK, &self.ys)?];
        let dims: Vec<usize> = kinds
            .iter()
            .map(|&(cx, cy)| sx[cx].n_dofs() * sy[cy].n_dofs())
            .collect();
        let mut offsets = vec![0usize; 9];
        for f in 0..8 {
            offsets[f + 1] = offsets[f] + dims[f];
        }
        let n = offsets[8];
        // 1D matrices indexed [kind_s][kind_t]
        let m1 = |s: &[Space1; 3], deriv: bool| -> Vec<Vec<Sparse1>> {
            (0..3)
                .map(|a| (0..3).map(|b| matrix1(&s[a], &s[b], deriv)).collect())
                .collect()
        };
        let (mx, dx) = (m1(&sx, false), m1(&sx, true));
        let (my, dy) = (m1(&sy, false), m1(&sy, true));
        // pushes c · (A_x ⊗ A_y) into block (row field r, col field c), A_x = ∫ s_i t_j
        // (or ∫ s_i t_j' when `ddx`), A_y likewise, optionally also −c · transpose into
        // (c, r)
        let kron =
            |t: &mut Triplets, r: usize, c: usize, ddx: bool, ddy: bool, scale: f64, skew: bool| {
                let ((rx, ry), (cx, cy)) = (kinds[r], kinds[c]);
                let ax = if ddx { &dx[rx][cx] } else { &mx[rx][cx] };
                let ay = if ddy { &dy[ry][cy] } else { &my[ry][cy] };
                let (nr, nc) = (sx[rx].n_dofs(), sx[cx].n_dofs());
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
        let mut e = Triplets::new(n, n);
        let rb = p.rho * p.h;
        let it = p.rho * p.h.powi(3) / 12.0;
        kron(&mut e, W, W, false, false, rb, false);
        kron(&mut e, TX, TX, false, false, it, false);
        kron(&mut e, TY, TY, false, false, it, false);
        // compliance C_b M : M with C_b = 12/(E b³) [(1+ν) M − ν tr M I] (thesis (7.10))
        let a = 12.0 / (p.E * p.h.powi(3));
        kron(&mut e, M11, M11, false, false, a, false);
        kron(&mut e, M22, M22, false, false, a, false);
        kron(&mut e, M11, M22, false, false, -a * p.nu, false);
        kron(&mut e, M22, M11, false, false, -a * p.nu, false);
        kron(
            &mut e,
            M12,
            M12,
            false,
            false,
            2.0 * a * (1.0 + p.nu),
            false,
        );
        let cs = 1.0 / (p.k_sh * p.shear_modulus() * p.h);
        kron(&mut e, GX, GX, false, false, cs, false);
        kron(&mut e, GY, GY, false, false, cs, false);
        let mut j = Triplets::new(n, n);
        // ⟨v_w, div γ⟩
        kron(&mut j, W, GX, true, false, 1.0, true);
        kron(&mut j, W, GY, false, true, 1.0, true);
        // ⟨v_θ, Div M⟩: (∂x m11 + ∂y m12, ∂x m12 + ∂y m22)
        kron(&mut j, TX, M11, true, false, 1.0, true);
        kron(&mut j, TX, M12, false, true, 1.0, true);
        kron(&mut j, TY, M12, true, false, 1.0, true);
        kron(&mut j, TY, M22, false, true, 1.0, true);
        // ⟨v_θ, γ⟩
        kron(&mut j, TX, GX, false, false, 1.0, true);
        kron(&mut j, TY, GY, false, false, 1.0, true);
        let grid = Grid {
            sx,
            sy,
            kinds,
            offsets,
        };
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
                "bending moments (m11, m22) in the H(div) space, m12 in Q_k [N m/m]",
                o[6] - o[3],
            ),
            VarBlock::differential("e_gamma", "shear forces, H(div) space [N/m]", o[8] - o[6]),
        ];
        let system = lossless_system(e.build(), j.build(), b.build(), ports, blocks)?;
        Ok(MindlinBjtModel {
            params: *p,
            degree: k,
            space: self.space,
            grid,
            system,
        })
    }
}

/// Tensor-product grid data shared by the model's helpers.
#[derive(Debug, Clone)]
struct Grid {
    /// 1D spaces along x: [DG_{k-1}, CG_k, DG_k].
    sx: [Space1; 3],
    /// 1D spaces along y.
    sy: [Space1; 3],
    /// (x, y) space kinds of the eight scalar fields.
    kinds: [(usize, usize); 8],
    /// Start of each scalar field in the state (9 entries).
    offsets: Vec<usize>,
}

impl Grid {
    fn spaces(&self, f: usize) -> (&Space1, &Space1) {
        let (cx, cy) = self.kinds[f];
        (&self.sx[cx], &self.sy[cy])
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

/// A scalar field of the BJT state (the eight blocks of the module docs' state order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BjtField {
    /// Vertical velocity $e_w$ [m/s] ($DQ_{k-1}$).
    Velocity,
    /// Rotation rate $e_{\theta,x}$ [rad/s] ($DQ_{k-1}$).
    RotationRateX,
    /// Rotation rate $e_{\theta,y}$ [rad/s] ($DQ_{k-1}$).
    RotationRateY,
    /// Bending moment $m_{11}$ [N m/m] (H(div) space, x component).
    M11,
    /// Twisting moment $m_{12}$ [N m/m] ($Q_k$).
    M12,
    /// Bending moment $m_{22}$ [N m/m] (H(div) space, y component).
    M22,
    /// Shear force $q_x$ [N/m] (H(div) space, x component).
    ShearX,
    /// Shear force $q_y$ [N/m] (H(div) space, y component).
    ShearY,
}

impl BjtField {
    /// All eight fields in state order.
    pub const ALL: [BjtField; 8] = [
        BjtField::Velocity,
        BjtField::RotationRateX,
        BjtField::RotationRateY,
        BjtField::M11,
        BjtField::M12,
        BjtField::M22,
        BjtField::ShearX,
        BjtField::ShearY,
    ];
    /// Index in the state order ([`MindlinBjtModel::field_offsets`]).
    pub fn index(self) -> usize {
        self as usize
    }
    /// Short name (`e_w`, `e_theta_x`, `e_theta_y`, `m11`, `m12`, `m22`, `q_x`, `q_y`).
    pub fn name(self) -> &'static str {
        [
            "e_w",
            "e_theta_x",
            "e_theta_y",
            "m11",
            "m12",
            "m22",
            "q_x",
            "q_y",
        ][self as usize]
    }
}

/// The assembled BJT Mindlin plate.
#[derive(Debug, Clone)]
pub struct MindlinBjtModel {
    params: MindlinParams,
    degree: usize,
    space: BjtHdivSpace,
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
    system_and_params_accessors!(
        /// The port-Hamiltonian system $E\dot e = Je + Bu$.
        MindlinParams
    );
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
    /// The $H(\mathrm{div})$ space of $(m_{11}, m_{22})$ and $e_\gamma$.
    pub fn hdiv_space(&self) -> BjtHdivSpace {
        self.space
    }
    /// Grid breakpoints $(x_i)$, $(y_j)$.
    pub fn breakpoints(&self) -> (&[f64], &[f64]) {
        (&self.grid.sx[CG].breaks, &self.grid.sy[CG].breaks)
    }
    /// The grid as a quadrilateral mesh ([`QuadMesh::tensor_grid`]: vertex $(i, j)$ is
    /// number $j\,n_x + i$, cell $(i, j)$ number $j\,(n_x - 1) + i$), for VTK output
    /// ([`crate::io::vtk::Vtu::new_quad`]) with [`Self::vertex_values`] and
    /// [`Self::cell_values`].
    pub fn quad_mesh(&self) -> Result<QuadMesh, Fem2dError> {
        let (xs, ys) = self.breakpoints();
        QuadMesh::tensor_grid(xs, ys)
    }
    fn check_state(&self, e: &[f64]) -> Result<(), Fem2dError> {
        require_len("BJT Mindlin state", self.n_states(), e.len())?;
        Ok(())
    }
    /// Value of `field` of state `e` at local coordinates `(ξ, η)` ∈ [0, 1]² of cell
    /// `(cx, cy)` (no checks).
    fn eval_local(&self, e: &[f64], f: usize, cx: usize, cy: usize, xi: f64, eta: f64) -> f64 {
        let (s, t) = self.grid.spaces(f);
        let (ns, nt) = (s.basis.len(), t.basis.len());
        let (mut vs, mut ds, mut vt, mut dt) = ([0.0; 9], [0.0; 9], [0.0; 9], [0.0; 9]);
        s.basis.eval(xi, &mut vs[..ns], &mut ds[..ns]);
        t.basis.eval(eta, &mut vt[..nt], &mut dt[..nt]);
        let (off, nx) = (self.grid.offsets[f], s.n_dofs());
        let mut acc = 0.0;
        for iy in 0..nt {
            for ix in 0..ns {
                acc += e[off + t.dof(cy, iy) * nx + s.dof(cx, ix)] * vs[ix] * vt[iy];
            }
        }
        acc
    }
    /// Value of `field` of state `e` at the point `x` (in the closed grid; on an
    /// interior cell edge a discontinuous field takes the value of the cell above/right
    /// of it). Errors: wrong state length, point outside the grid.
    pub fn evaluate(&self, e: &[f64], field: BjtField, x: [f64; 2]) -> Result<f64, Fem2dError> {
        self.check_state(e)?;
        let (xs, ys) = self.breakpoints();
        let locate = |b: &[f64], v: f64| -> Option<(usize, f64)> {
            let (a, z) = (b[0], b[b.len() - 1]);
            let tol = 1e-12 * (z - a);
            if !(v >= a - tol && v <= z + tol) {
                return None;
            }
            let c = b.partition_point(|&bi| bi <= v).clamp(1, b.len() - 1) - 1;
            Some((c, ((v - b[c]) / (b[c + 1] - b[c])).clamp(0.0, 1.0)))
        };
        match (locate(xs, x[0]), locate(ys, x[1])) {
            (Some((cx, xi)), Some((cy, eta))) => {
                Ok(self.eval_local(e, field.index(), cx, cy, xi, eta))
            }
            _ => Err(Fem2dError::PointOutsideMesh { x }),
        }
    }
    /// Vertical velocity $e_w$ of state `e` at the points `pts` ([`Self::evaluate`]).
    pub fn velocity_at(&self, e: &[f64], pts: &[[f64; 2]]) -> Result<Vec<f64>, Fem2dError> {
        pts.iter()
            .map(|&p| self.evaluate(e, BjtField::Velocity, p))
            .collect()
    }
    /// Values of `field` of state `e` at the vertices of [`Self::quad_mesh`], averaged over
    /// the cells sharing each vertex (exact for the continuous $m_{12}$, the nodal average
    /// of the discontinuous fields: VTK point data).
    pub fn vertex_values(&self, e: &[f64], field: BjtField) -> Result<Vec<f64>, Fem2dError> {
        self.check_state(e)?;
        let (xs, ys) = self.breakpoints();
        let (nx, ny) = (xs.len(), ys.len());
        let mut sum = vec![0.0; nx * ny];
        let mut cnt = vec![0u32; nx * ny];
        for cy in 0..ny - 1 {
            for cx in 0..nx - 1 {
                for (di, dj) in [(0, 0), (1, 0), (1, 1), (0, 1)] {
                    let v = (cy + dj) * nx + cx + di;
                    sum[v] += self.eval_local(e, field.index(), cx, cy, di as f64, dj as f64);
                    cnt[v] += 1;
                }
            }
        }
        Ok(sum.iter().zip(&cnt).map(|(s, &c)| s / c as f64).collect())
    }
    /// Values of `field` of state `e` at the cell centres of [`Self::quad_mesh`] (VTK cell
    /// data).
    pub fn cell_values(&self, e: &[f64], field: BjtField) -> Result<Vec<f64>, Fem2dError> {
        self.check_state(e)?;
        let (xs, ys) = self.breakpoints();
        let mut out = Vec::with_capacity((xs.len() - 1) * (ys.len() - 1));
        for cy in 0..ys.len() - 1 {
            for cx in 0..xs.len() - 1 {
                out.push(self.eval_local(e, field.index(), cx, cy, 0.5, 0.5));
            }
        }
        Ok(out)
    }
    /// Energy split of state `e`: [translational kinetic $\tfrac12\int\rho b\,e_w^2$,
    /// rotational kinetic $\tfrac12\int\tfrac{\rho b^3}{12}|e_\theta|^2$, bending
    /// $\tfrac12\int\mathbf E_\kappa:\mathcal C_b\mathbf E_\kappa$, shear
    /// $\tfrac12\int C_s|e_\gamma|^2$] (the diagonal blocks of $E$; they sum to
    /// $H = \tfrac12 e^\top E e$). Error: wrong state length.
    pub fn energy_split(&self, e: &[f64]) -> Result<[f64; 4], Fem2dError> {
        self.check_state(e)?;
        let o = &self.grid.offsets;
        let groups = [
            (o[W], o[TX]),
            (o[TX], o[M11]),
            (o[M11], o[GX]),
            (o[GX], o[8]),
        ];
        let mut out = [0.0; 4];
        let mut buf = vec![0.0; e.len()];
        for (g, &(a, b)) in groups.iter().enumerate() {
            buf[a..b].copy_from_slice(&e[a..b]);
            out[g] = 0.5 * sparse::bilinear(&buf, &self.system.E, &buf);
            buf[a..b].iter_mut().for_each(|v| *v = 0.0);
        }
        Ok(out)
    }
    /// Bending stiffness $D = Eb^3/(12(1-\nu^2))$ and surface density $\rho b$ (the
    /// eigen-shift scales of the CLI).
    pub fn stiffness_and_density(&self) -> (f64, f64) {
        (
            self.params.bending_stiffness(),
            self.params.rho * self.params.h,
        )
    }
    /// Initial state: nodal interpolants of `w` (into $e_w$) and `theta` (into
    /// $e_\theta$) at the equispaced DG nodes, moments and shear forces zero.
    pub fn interpolate_state(
        &self,
        w: &dyn Fn([f64; 2]) -> f64,
        theta: &dyn Fn([f64; 2]) -> [f64; 2],
    ) -> Vec<f64> {
        self.kinematic_state(w, theta, |f, u| self.grid.interpolate(f, u))
    }
    /// Initial state: $L^2$ projections of `w` (into $e_w$) and `theta` (into
    /// $e_\theta$) (cell by cell: the spaces are discontinuous), moments and shear forces
    /// zero.
    pub fn project_state(
        &self,
        w: &dyn Fn([f64; 2]) -> f64,
        theta: &dyn Fn([f64; 2]) -> [f64; 2],
    ) -> Vec<f64> {
        self.kinematic_state(w, theta, |f, u| {
            let rhs = self.grid.project_rhs(f, u);
            self.grid.solve_dg_gram(f, &rhs)
        })
    }
    /// State with the blocks $e_w$, $e_{\theta_x}$, $e_{\theta_y}$ set to
    /// `approximate(field, function)` of `w` and the components of `theta`, the moments and
    /// shear forces zero (the initial states above).
    fn kinematic_state(
        &self,
        w: &dyn Fn([f64; 2]) -> f64,
        theta: &dyn Fn([f64; 2]) -> [f64; 2],
        approximate: impl Fn(usize, ScalarFn) -> Vec<f64>,
    ) -> Vec<f64> {
        let mut e = vec![0.0; self.n_states()];
        let o = &self.grid.offsets;
        let tx = |x: [f64; 2]| theta(x)[0];
        let ty = |x: [f64; 2]| theta(x)[1];
        let fs: [(usize, ScalarFn); 3] = [(W, w), (TX, &tx), (TY, &ty)];
        for (f, u) in fs {
            let v = approximate(f, u);
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
    use crate::models::plate::mindlin::benchmarks;

    /// Structure: J skew, E symmetric PSD; field sizes for k = 2 on 3 × 2 cells (1D:
    /// DG1 6 / CG2 7 / DG2 9 along x, DG1 4 / CG2 5 / DG2 6 along y) for both H(div)
    /// spaces; projection and nodal interpolation coincide for data in DQ_1 (x y, 1 + x);
    /// invalid degree and breakpoints rejected.
    #[test]
    fn structure_and_sizes() {
        let p = benchmarks::thesis_params();
        for (space, want) in [
            (BjtHdivSpace::QkDiv, vec![24, 24, 24, 42, 35, 45, 42, 45]),
            (BjtHdivSpace::Rtcf, vec![24, 24, 24, 28, 35, 30, 28, 30]),
        ] {
            let m = MindlinBjt::rectangle(p, 1.5, 1.0, 3, 2, 2)
                .unwrap()
                .hdiv_space(space)
                .build()
                .unwrap();
            assert_eq!(m.hdiv_space(), space);
            m.system().check(&Default::default()).unwrap();
            let o = m.field_offsets();
            let sizes: Vec<usize> = (0..8).map(|f| o[f + 1] - o[f]).collect();
            assert_eq!(sizes, want, "{space:?}");
            let a = m.interpolate_state(&|x| x[0] * x[1], &|x| [1.0 + x[0], x[1]]);
            let b = m.project_state(&|x| x[0] * x[1], &|x| [1.0 + x[0], x[1]]);
            let d = a
                .iter()
                .zip(&b)
                .map(|(x, y)| (x - y).abs())
                .fold(0.0, f64::max);
            assert!(d < 1e-13, "{d}");
        }
        assert!(MindlinBjt::rectangle(p, 1.0, 1.0, 2, 2, 4).is_err());
        assert!(MindlinBjt::new(p, vec![0.0, 1.0, 0.5], vec![0.0, 1.0], 1).is_err());
    }

    /// Sampling for the CLI: on a non-uniform 3 × 2 grid (k = 2) the interpolated
    /// e_w = x y + 1 and e_θ = (x, 0) (DQ_1 reproduces both exactly) are recovered by
    /// `evaluate`, `velocity_at`, `vertex_values` and `cell_values` to round-off; points
    /// outside and states of the wrong length are rejected; the energy split is
    /// [½ρb∫e_w², ½ρb³/12∫|e_θ|², 0, 0] with the integrals in closed form; the quad mesh
    /// has the grid's vertices.
    #[test]
    fn sampling_and_energy_split() {
        let p = benchmarks::thesis_params();
        let xs = vec![0.0, 0.3, 1.0, 1.5];
        let ys = vec![0.0, 0.4, 1.0];
        let m = MindlinBjt::new(p, xs.clone(), ys.clone(), 2)
            .unwrap()
            .build()
            .unwrap();
        let w = |x: [f64; 2]| x[0] * x[1] + 1.0;
        let e = m.interpolate_state(&w, &|x| [x[0], 0.0]);
        let mesh = m.quad_mesh().unwrap();
        assert_eq!(mesh.n_vertices(), 12);
        assert_eq!(mesh.n_cells(), 6);
        let vv = m.vertex_values(&e, BjtField::Velocity).unwrap();
        for (v, x) in vv.iter().zip(mesh.vertices()) {
            assert!((v - w(*x)).abs() < 1e-13, "{v} at {x:?}");
        }
        let tx = m.vertex_values(&e, BjtField::RotationRateX).unwrap();
        for (v, x) in tx.iter().zip(mesh.vertices()) {
            assert!((v - x[0]).abs() < 1e-13, "{v} at {x:?}");
        }
        let cv = m.cell_values(&e, BjtField::Velocity).unwrap();
        for (c, q) in cv.iter().zip(mesh.quads()) {
            let ctr = [0, 1].map(|d| q.iter().map(|&i| mesh.vertices()[i][d]).sum::<f64>() / 4.0);
            assert!((c - w(ctr)).abs() < 1e-13);
        }
        let pts = [[0.7, 0.2], [1.5, 1.0], [0.0, 0.0]];
        let v = m.velocity_at(&e, &pts).unwrap();
        for (a, x) in v.iter().zip(&pts) {
            assert!((a - w(*x)).abs() < 1e-13);
        }
        assert!(m.velocity_at(&e, &[[1.6, 0.5]]).is_err());
        assert!(m.evaluate(&e, BjtField::M12, [0.5, -0.1]).is_err());
        assert!(m.vertex_values(&e[1..], BjtField::Velocity).is_err());
        assert_eq!(m.evaluate(&e, BjtField::M11, [0.5, 0.5]).unwrap(), 0.0);
        // ∫(xy + 1)² over [0, 1.5]×[0, 1] = (1.5³/3)(1/3) + 2 (1.5²/2)(1/2) + 1.5
        let iw = 1.5f64.powi(3) / 9.0 + 1.5f64.powi(2) / 2.0 + 1.5;
        let ith = 1.5f64.powi(3) / 3.0;
        let s = m.energy_split(&e).unwrap();
        let want = [
            0.5 * p.rho * p.h * iw,
            0.5 * p.rho * p.h.powi(3) / 12.0 * ith,
            0.0,
            0.0,
        ];
        for g in 0..4 {
            assert!(
                (s[g] - want[g]).abs() < 1e-12 * want[0],
                "{g}: {} {}",
                s[g],
                want[g]
            );
        }
        let h = 0.5 * sparse::bilinear(&e, &m.system().E, &e);
        assert!((s.iter().sum::<f64>() - h).abs() < 1e-14 * h);
        assert_eq!(BjtField::ALL[4].name(), "m12");
        assert!(QuadMesh::tensor_grid(&[0.0], &ys).is_err());
    }
}
