//! Hessian pairings $\int \Phi : \operatorname{Hess} w$ between a symmetric-tensor space
//! (the bending moments) and a scalar space (the deflection velocity), the coupling block
//! of every Kirchhoff plate (thesis 004 §6.1.4 "$D_{\mathrm{Hess}}$", eqs. (7.17), (7.23)):
//!
//! * [`hhj_coupling`]: HHJ moments × continuous Lagrange $CG_k$ velocity, with the
//!   element-boundary term $-\sum_T\int_{\partial T}\Phi_{nn}\partial_{n_T}\phi$ that makes
//!   the pairing well defined for $H^1$ velocities (thesis eq. (7.17));
//! * [`c1_coupling`]: $C^1$ (Bell or Argyris) velocity × discontinuous Lagrange tensors, a
//!   plain cell integral since $\operatorname{Hess} w \in L^2$ (thesis eq. (7.23)).
use crate::element::triangle::bell::{C1Space, C1Values};
use crate::element::triangle::hhj::{
    normal_normal, physical_hessian, push_local, HhjSpace, LagrangeHessian, REF_VERTICES,
};
use crate::error::{Fem2dError, FemError};
use crate::mesh::triangle::CellGeometry;
use crate::quadrature::gauss_legendre::GaussLegendre;
use crate::quadrature::triangle::TriangleQuadrature;
use crate::space::triangle::{Family2d, Shape, Space2d};
use phlex_core::{SparseMat, Triplets};

/// The HHJ coupling matrix $D^{mi} = -d_h(\phi^i, \Phi^m)$ (thesis eq. (7.17)):
/// $$D^{mi} = \sum_T \int_T \Phi^m : \operatorname{Hess}\phi^i -
///   \sum_T \int_{\partial T} \Phi^m_{nn}\,\partial_{n_T}\phi^i ,$$
/// rows = DOFs of the HHJ space `hhj`, columns = DOFs of the scalar continuous Lagrange
/// space `cg` (same mesh). For $w \in H^2$ it reduces to
/// $\langle\mathbf E, \operatorname{Hess} w\rangle - \int_{\partial\Omega}E_{nn}\partial_n w$.
/// With it the HHJ plate reads $J = \begin{bmatrix}0 & -D^\top\\ D & 0\end{bmatrix}$.
/// Exact (cell rule of degree $2k - 3$, edge Gauss rule of degree $2k - 2$).
pub fn hhj_coupling(hhj: &HhjSpace, cg: &Space2d) -> Result<SparseMat, Fem2dError> {
    if hhj.mesh() != cg.mesh() {
        return Err(FemError::MeshMismatch {
            a: hhj.describe(),
            b: cg.describe(),
        }
        .into());
    }
    let k = match (cg.family(), cg.shape()) {
        (Family2d::Cg(k), Shape::Scalar) => k,
        _ => {
            return Err(FemError::InvalidParameter {
                name: format!("displacement space {}", cg.describe()),
                value: cg.family().degree() as f64,
                requirement: "a scalar continuous Lagrange space CG_k".into(),
            }
            .into())
        }
    };
    let el = cg.element();
    let hess = LagrangeHessian::new(el)?;
    let (nh, nw) = (hhj.n_local(), cg.n_local());
    let q = TriangleQuadrature::exact_for_degree((hhj.degree() + k).saturating_sub(2))?;
    let gl = GaussLegendre::new((hhj.degree() + k).div_ceil(2))?;
    let mesh = hhj.mesh();
    let mut trip = Triplets::new(hhj.n_dofs(), cg.n_dofs());
    let mut b = vec![[0.0; 3]; nh];
    let mut h = vec![[0.0; 3]; nw];
    let (mut v, mut dx, mut dy) = (vec![0.0; nw], vec![0.0; nw], vec![0.0; nw]);
    let mut local = vec![0.0; nh * nw];
    for t in 0..mesh.n_cells() {
        let g = CellGeometry::new(mesh, t);
        local.iter_mut().for_each(|x| *x = 0.0);
        // cell term ∫_T Φ : Hess φ
        if k >= 2 {
            for (xh, &w) in q.points.iter().zip(&q.weights) {
                hhj.eval_cell(t, *xh, &mut b);
                hess.eval(*xh, &mut h);
                let wd = w * g.det;
                for (j, hj) in h.iter().enumerate() {
                    let H = physical_hessian(&g, *hj);
                    for (i, bi) in b.iter().enumerate() {
                        local[i * nw + j] +=
                            wd * (bi[0] * H[0] + 2.0 * bi[1] * H[1] + bi[2] * H[2]);
                    }
                }
            }
        }
        // element boundary term −∫_∂T Φ_nn ∂_n φ (outward normal of T)
        let x = mesh.cell_coords(t);
        for e in 0..3 {
            let (la, lb) = ((e + 1) % 3, (e + 2) % 3);
            let (ex, ey) = (x[lb][0] - x[la][0], x[lb][1] - x[la][1]);
            let l = (ex * ex + ey * ey).sqrt();
            let n = [ey / l, -ex / l];
            let (a, bb) = (REF_VERTICES[la], REF_VERTICES[lb]);
            for (&tq, &w) in gl.points.iter().zip(&gl.weights) {
                let xh = [a[0] + tq * (bb[0] - a[0]), a[1] + tq * (bb[1] - a[1])];
                hhj.eval_cell(t, xh, &mut b);
                el.eval(xh, &mut v, &mut dx, &mut dy);
                let wl = w * l;
                for j in 0..nw {
                    let gr = g.grad(dx[j], dy[j]);
                    let dn = gr[0] * n[0] + gr[1] * n[1];
                    if dn == 0.0 {
                        continue;
                    }
                    for (i, bi) in b.iter().enumerate() {
                        local[i * nw + j] -= wl * normal_normal(*bi, n) * dn;
                    }
                }
            }
        }
        push_local(&mut trip, &local, hhj.cell_dofs(t), cg.cell_dofs(t));
    }
    Ok(trip.build())
}

/// Hessian coupling $D^{mi} = \int\Phi^m : \operatorname{Hess}\phi^i$ with the symmetric
/// tensor space `tensor` (components $xx, xy, yy$; Frobenius product), thesis 004
/// §6.1.4 "$D_{\mathrm{Hess}}$" / eq. (7.23). Exact for tensor degrees up to 5.
pub fn c1_coupling(c1: &C1Space, tensor: &Space2d) -> Result<SparseMat, Fem2dError> {
    if tensor.n_comp() != 3 || tensor.mesh() != c1.mesh() {
        return Err(FemError::InvalidParameter {
            name: format!("tensor space {}", tensor.describe()),
            value: tensor.n_comp() as f64,
            requirement: "a symmetric-tensor space on the same mesh as the C1 space".into(),
        }
        .into());
    }
    let el = tensor.element();
    let nt = el.n_local();
    let nb = c1.n_local();
    let (mut v, mut dx, mut dy) = (vec![0.0; nt], vec![0.0; nt], vec![0.0; nt]);
    let mut tr = Triplets::new(tensor.n_dofs(), c1.n_dofs());
    let q = TriangleQuadrature::exact_for_degree(el.degree() + 3)?;
    let mut b = C1Values::new(nb);
    let mut loc = vec![0.0; 3 * nt * nb];
    for t in 0..c1.mesh().n_cells() {
        let g = CellGeometry::new(c1.mesh(), t);
        loc.iter_mut().for_each(|x| *x = 0.0);
        for (xh, &w) in q.points.iter().zip(&q.weights) {
            let x = g.map(*xh);
            c1.eval_cell(t, x, &mut b);
            el.eval(*xh, &mut v, &mut dx, &mut dy);
            let wd = w * g.det;
            for m in 0..nt {
                for (c, fw) in [1.0, 2.0, 1.0].iter().enumerate() {
                    let s = wd * fw * v[m];
                    for i in 0..nb {
                        loc[(c * nt + m) * nb + i] += s * b.hess[i][c];
                    }
                }
            }
        }
        let dt = tensor.cell_dofs(t);
        let dw = c1.cell_dofs(t);
        for c in 0..3 {
            for m in 0..nt {
                for i in 0..nb {
                    tr.push(tensor.global(c, dt[m]), dw[i], loc[(c * nt + m) * nb + i]);
                }
            }
        }
    }
    Ok(tr.build())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::element::triangle::bell::tests::random_mesh;
    use crate::mesh::triangle::{Diagonal, Mesh2d};
    use phlex_core::sparse;

    /// −d_h for smooth fields: Eᵀ D w = ∫ E:Hess w − ∫_∂Ω E_nn ∂_n w. On the unit square
    /// with w = x²y, E = [[x, 0], [0, y²]]: ∫ E:Hess w = ∫ 2xy = 1/2; boundary: x = 1 gives
    /// ∫ 1·2y = 1, y = 1 gives ∫ 1·x² = 1/3, x = 0 and y = 0 have E_nn = 0. Total −5/6.
    #[test]
    fn hessian_coupling_smooth() {
        for diag in [Diagonal::Right, Diagonal::Left] {
            let m = Mesh2d::unit_square(3, diag).unwrap();
            let cg = Space2d::new(&m, Family2d::Cg(3), Shape::Scalar).unwrap();
            let s = HhjSpace::new(&m, 2).unwrap();
            let D = hhj_coupling(&s, &cg).unwrap();
            let w = cg.interpolate(&|x, o| o[0] = x[0] * x[0] * x[1]);
            let e = s.interpolate(&|x| [x[0], 0.0, x[1] * x[1]]).unwrap();
            let val = sparse::bilinear(&e, &D, &w);
            assert!((val + 5.0 / 6.0).abs() < 1e-12, "{diag:?}: {val}");
        }
    }

    /// The jump term: w = (x − ½)₊ (piecewise linear, kink on the mesh line x = ½) and
    /// E = [[x, 0], [0, 0]] on a 2×2 mesh with k = 2. Hess w = 0 in every cell; the jump
    /// of ∂_n w across x = ½ is 0 + (−1) = −1 with E_nn = ½ (length 1): −½; the boundary
    /// x = 1 gives E_nn ∂_n w = 1. So d_h = ½ and Eᵀ D w = −½.
    #[test]
    fn hessian_coupling_jump() {
        let m = Mesh2d::unit_square(2, Diagonal::Right).unwrap();
        let cg = Space2d::new(&m, Family2d::Cg(2), Shape::Scalar).unwrap();
        let s = HhjSpace::new(&m, 1).unwrap();
        let D = hhj_coupling(&s, &cg).unwrap();
        let w = cg.interpolate(&|x, o| o[0] = (x[0] - 0.5).max(0.0));
        let e = s.interpolate(&|x| [x[0], 0.0, 0.0]).unwrap();
        assert!((sparse::bilinear(&e, &D, &w) + 0.5).abs() < 1e-12);
        // wrong space types are typed errors
        let dg = Space2d::new(&m, Family2d::Dg(1), Shape::Scalar).unwrap();
        assert!(hhj_coupling(&s, &dg).is_err());
        let other = Mesh2d::unit_square(3, Diagonal::Right).unwrap();
        let cg3 = Space2d::new(&other, Family2d::Cg(2), Shape::Scalar).unwrap();
        assert!(matches!(
            hhj_coupling(&s, &cg3),
            Err(Fem2dError::Fem(FemError::MeshMismatch { .. }))
        ));
    }

    /// The Hessian coupling against DG3 tensors integrates exactly: for the interpolant
    /// $u_h$ of a quartic and the constant tensor $\mathbf A$, $\mathbf a^\top D u_h =
    /// \int\mathbf A : \operatorname{Hess}u$.
    #[test]
    fn hessian_coupling_exact() {
        let mesh = random_mesh(2, 9);
        let sp = C1Space::bell(&mesh).unwrap();
        let ts = Space2d::new(&mesh, Family2d::Dg(3), Shape::SymTensor).unwrap();
        let D = c1_coupling(&sp, &ts).unwrap();
        let u = sp.interpolate(&|x| {
            [
                x[0].powi(4),
                4.0 * x[0].powi(3),
                0.0,
                12.0 * x[0] * x[0],
                0.0,
                0.0,
            ]
        });
        let A = ts.interpolate(&|_, o| {
            o[0] = 1.0;
            o[1] = 0.5;
            o[2] = -2.0;
        });
        let v = sparse::bilinear(&A, &D, &u);
        // ∫ 12 x² over the unit square = 4
        assert!((v - 4.0).abs() < 1e-11, "{v}");
        let M = sp.mass(1.0).unwrap();
        let one = sp.interpolate(&|_| [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]);
        assert!((sparse::bilinear(&one, &M, &one) - 1.0).abs() < 1e-12);
    }
}
