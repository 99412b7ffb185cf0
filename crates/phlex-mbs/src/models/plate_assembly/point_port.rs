//! In-domain point ports of a Kirchhoff plate (thesis 004 eqs. (10.11)–(10.15)).
//!
//! A force $F_z$ and torques $T_x, T_y$ applied at $x_P$ enter the plate as
//! $\mathcal B_{\Omega} u_P = [1, -\partial_y, \partial_x]\,\delta(x - x_P)\,u_P$; the adjoint
//! (integration by parts, eq. (10.12)) gives the collocated output
//! $y_P = \delta(x - x_P)\,[1, \partial_y, -\partial_x]^\top e_w$. With the $CG_k$ basis
//! $\phi_w^j$ the discrete input matrix is (eq. (10.15))
//! $$B_{\Omega}^{j} = \int_\Omega \delta^{app}(x - x_P)\,[1,\ \partial_y,\ -\partial_x]\,\phi_w^j\,d\Omega .$$
//! Two approximations of $\delta$ ([`DeltaApprox`]):
//! * **box** (eq. (10.13)): $\delta^{app} = 1/(4h_xh_y)$ on
//!   $|x - x_P| \le h_x$, $|y - y_P| \le h_y$ (the thesis prints "$4h_xh_y$"; the normalised
//!   value is meant, summary §5.6). The box is clipped against every triangle
//!   (Sutherland–Hodgman) and the polynomial integrand is integrated exactly; the part of the
//!   box outside the plate carries no weight, so a point on an edge gets half the weight,
//!   as with the thesis's formula. [`DeltaApprox::BoxClipped`] renormalises by the area of
//!   the box inside the plate instead.
//! * **point**: exact evaluation $\[\phi, \partial_y\phi, -\partial_x\phi\](x_P)$ (the $CG_k$
//!   space allows it); the gradient, discontinuous across element edges, is averaged over
//!   the cells containing $x_P$.
use phlex_core::sparse::{SparseMat, Triplets};
use phlex_core::{LinearPhSystem, Port, PortSet};
use phlex_fem::error::Fem2dError;
use phlex_fem::mesh::CellGeometry;
use phlex_fem::models::plate::KirchhoffModel;
use phlex_fem::quadrature::TriangleQuadrature;
use phlex_fem::space::Space2d;

use super::PlateAssemblyError;

/// Approximation of the Dirac distribution of a point port.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DeltaApprox {
    /// Thesis eq. (10.13): $1/(4h_xh_y)$ on the box of half-widths `hx`, `hy` \[m\]; the
    /// part outside the plate is lost (half the weight on an edge).
    Box {
        /// Half-width along $x$ (the thesis takes the mesh size $h_x$).
        hx: f64,
        /// Half-width along $y$ (the thesis takes the mesh size $h_y$).
        hy: f64,
    },
    /// Box renormalised by its area inside the plate (unit weight everywhere).
    BoxClipped {
        /// Half-width along $x$.
        hx: f64,
        /// Half-width along $y$.
        hy: f64,
    },
    /// Exact point evaluation (gradients averaged over the cells containing the point).
    Point,
}

/// A named point port at $x_P$ (plate mesh coordinates).
#[derive(Debug, Clone, PartialEq)]
pub struct PointPort {
    /// Port name.
    pub name: String,
    /// Location \[m\].
    pub at: [f64; 2],
}

/// Columns $[1, \partial_y, -\partial_x]$ of $B_\Omega$ over the **full** $CG_k$ velocity
/// space (3 vectors of length `n_dofs`).
fn open_columns(
    sw: &Space2d,
    name: &str,
    x: [f64; 2],
    delta: DeltaApprox,
) -> Result<[Vec<f64>; 3], PlateAssemblyError> {
    let n = sw.n_dofs();
    let mut cols = [vec![0.0; n], vec![0.0; n], vec![0.0; n]];
    let mesh = sw.mesh();
    let el = sw.element();
    let nl = el.n_local();
    let (mut v, mut dx, mut dy) = (vec![0.0; nl], vec![0.0; nl], vec![0.0; nl]);
    match delta {
        DeltaApprox::Point => {
            let mut cells = Vec::new();
            for t in 0..mesh.n_cells() {
                let xh = CellGeometry::new(mesh, t).inverse_map(x);
                let tol = 1e-10;
                if xh[0] >= -tol && xh[1] >= -tol && xh[0] + xh[1] <= 1.0 + tol {
                    cells.push((t, xh));
                }
            }
            if cells.is_empty() {
                return Err(PlateAssemblyError::PointOutside {
                    port: name.into(),
                    x: x[0],
                    y: x[1],
                });
            }
            let wgt = 1.0 / cells.len() as f64;
            for (t, xh) in cells {
                let g = CellGeometry::new(mesh, t);
                el.eval(xh, &mut v, &mut dx, &mut dy);
                for (j, &i) in sw.cell_dofs(t).iter().enumerate() {
                    let gr = g.grad(dx[j], dy[j]);
                    // the value is continuous: every cell gives the same, average anyway
                    cols[0][i] += wgt * v[j];
                    cols[1][i] += wgt * gr[1];
                    cols[2][i] -= wgt * gr[0];
                }
            }
        }
        DeltaApprox::Box { hx, hy } | DeltaApprox::BoxClipped { hx, hy } => {
            super::positive(name, "hx", hx)?;
            super::positive(name, "hy", hy)?;
            let q = TriangleQuadrature::exact_for_degree(el.degree()).map_err(Fem2dError::from)?;
            let rect = [x[0] - hx, x[0] + hx, x[1] - hy, x[1] + hy];
            let mut inside = 0.0;
            for t in 0..mesh.n_cells() {
                let c = mesh.cell_coords(t);
                let poly = clip_to_rect(&c, rect);
                if poly.len() < 3 {
                    continue;
                }
                let g = CellGeometry::new(mesh, t);
                let d = sw.cell_dofs(t);
                for k in 1..poly.len() - 1 {
                    let (p0, p1, p2) = (poly[0], poly[k], poly[k + 1]);
                    let a = [p1[0] - p0[0], p1[1] - p0[1]];
                    let b = [p2[0] - p0[0], p2[1] - p0[1]];
                    let det = (a[0] * b[1] - a[1] * b[0]).abs();
                    if det == 0.0 {
                        continue;
                    }
                    inside += 0.5 * det;
                    for (xq, &wq) in q.points.iter().zip(&q.weights) {
                        let p = [
                            p0[0] + a[0] * xq[0] + b[0] * xq[1],
                            p0[1] + a[1] * xq[0] + b[1] * xq[1],
                        ];
                        let w = wq * det;
                        el.eval(g.inverse_map(p), &mut v, &mut dx, &mut dy);
                        for j in 0..nl {
                            let gr = g.grad(dx[j], dy[j]);
                            cols[0][d[j]] += w * v[j];
                            cols[1][d[j]] += w * gr[1];
                            cols[2][d[j]] -= w * gr[0];
                        }
                    }
                }
            }
            if inside <= 1e-14 * hx * hy {
                return Err(PlateAssemblyError::PointOutside {
                    port: name.into(),
                    x: x[0],
                    y: x[1],
                });
            }
            let area = match delta {
                DeltaApprox::BoxClipped { .. } => inside,
                _ => 4.0 * hx * hy,
            };
            for c in cols.iter_mut() {
                c.iter_mut().for_each(|v| *v /= area);
            }
        }
    }
    Ok(cols)
}

/// Sutherland–Hodgman clipping of a triangle against the axis-aligned rectangle
/// `[x0, x1, y0, y1]`; returns the (convex, counter-clockwise) intersection polygon.
fn clip_to_rect(tri: &[[f64; 2]; 3], rect: [f64; 4]) -> Vec<[f64; 2]> {
    let mut poly: Vec<[f64; 2]> = tri.to_vec();
    // half-planes s·p[axis] <= s·bound
    let planes = [
        (0, -1.0, rect[0]),
        (0, 1.0, rect[1]),
        (1, -1.0, rect[2]),
        (1, 1.0, rect[3]),
    ];
    for (axis, s, bound) in planes {
        if poly.is_empty() {
            break;
        }
        let inside = |p: &[f64; 2]| s * (p[axis] - bound) <= 0.0;
        let mut out = Vec::with_capacity(poly.len() + 2);
        for i in 0..poly.len() {
            let (p, q) = (poly[i], poly[(i + 1) % poly.len()]);
            let (ip, iq) = (inside(&p), inside(&q));
            if ip {
                out.push(p);
            }
            if ip != iq {
                let t = (bound - p[axis]) / (q[axis] - p[axis]);
                out.push([p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])]);
            }
        }
        poly = out;
    }
    poly
}

/// The $n \times 3$ input matrix $B_\Omega$ of a point port at `at` in the state numbering of
/// `plate` (rows of DOFs removed by strong conditions are dropped, multiplier rows are zero):
/// columns force $F_z$, torque $T_x$, torque $T_y$ (thesis eq. (10.15)).
pub fn point_input_matrix(
    plate: &KirchhoffModel,
    name: &str,
    at: [f64; 2],
    delta: DeltaApprox,
) -> Result<SparseMat, PlateAssemblyError> {
    let sw = plate.velocity_space();
    let cols = open_columns(sw, name, at, delta)?;
    let zk = vec![0.0; plate.moment_space().n_dofs()];
    let n = plate.n_states();
    let mut t = Triplets::new(n, 3);
    for (c, col) in cols.iter().enumerate() {
        let s = plate.state_from_fields(col, &zk)?;
        for (i, v) in s.iter().enumerate() {
            if *v != 0.0 {
                t.push(i, c, *v);
            }
        }
    }
    Ok(t.build())
}

/// The plate system with one extra 3-dimensional port per point port (named as given;
/// input $(F_z, T_x, T_y)$ \[N, N m, N m\], output $(w_t, \partial_y w_t, -\partial_x w_t)$
/// at the point \[m/s, rad/s, rad/s\]). Existing ports and blocks are kept.
pub fn with_point_ports(
    plate: &KirchhoffModel,
    ports: &[PointPort],
    delta: DeltaApprox,
) -> Result<LinearPhSystem, PlateAssemblyError> {
    let s = plate.system();
    let n = s.n_states();
    let m0 = s.n_inputs();
    let mut t = Triplets::new(n, m0 + 3 * ports.len());
    t.push_block(0, 0, &s.B, 1.0);
    let mut set: PortSet = s.ports.clone();
    for (k, p) in ports.iter().enumerate() {
        let B = point_input_matrix(plate, &p.name, p.at, delta)?;
        t.push_block(0, m0 + 3 * k, &B, 1.0);
        set.push(Port::new(
            p.name.clone(),
            3,
            format!(
                "force F_z and torques T_x, T_y at ({:.4}, {:.4}) [N, N m, N m]",
                p.at[0], p.at[1]
            ),
            "velocity w_t and rotation rates d_y w_t, -d_x w_t at the point [m/s, rad/s, rad/s]",
        ))?;
    }
    Ok(LinearPhSystem::new(
        s.E.clone(),
        s.J.clone(),
        s.R.clone(),
        t.build(),
        set,
        s.blocks.clone(),
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clipping_areas() {
        let tri = [[0.0, 0.0], [1.0, 0.0], [0.0, 1.0]];
        let area = |p: &[[f64; 2]]| {
            let mut a = 0.0;
            for i in 0..p.len() {
                let (u, v) = (p[i], p[(i + 1) % p.len()]);
                a += u[0] * v[1] - u[1] * v[0];
            }
            0.5 * a
        };
        // whole triangle inside
        assert!((area(&clip_to_rect(&tri, [-1.0, 2.0, -1.0, 2.0])) - 0.5).abs() < 1e-15);
        // unit square ∩ triangle below y = 0.5: trapezoid of area 0.5 − 0.125
        assert!((area(&clip_to_rect(&tri, [0.0, 1.0, 0.0, 0.5])) - 0.375).abs() < 1e-15);
        // [0, 0.25]² fully inside: 1/16
        assert!((area(&clip_to_rect(&tri, [0.0, 0.25, 0.0, 0.25])) - 0.0625).abs() < 1e-15);
        // disjoint
        assert!(clip_to_rect(&tri, [2.0, 3.0, 2.0, 3.0]).len() < 3);
    }
}
