//! Structured triangle mesh of a disk by concentric rings (the circular tank of thesis 004
//! §8.1.2, Table 8.2: radius $R$, "20 elements along $R$").
//!
//! Ring $i = 0, \dots, n$ has radius $r_i = iR/n$ and $6i$ vertices (one for $i = 0$) at the
//! angles $\theta_{i,j} = 2\pi j/(6i)$; the annulus between rings $i-1$ and $i$ is
//! triangulated by merging the two vertex loops in angular order, which gives $6(2i-1)$
//! triangles. The mesh has $1 + 3n(n+1)$ vertices, $6n^2$ triangles and $6n$ boundary
//! edges, all boundary vertices on the circle, and every boundary edge tagged `"boundary"`.
use crate::error::Fem2dError;
use crate::mesh::triangle::Mesh2d;
use std::f64::consts::PI;

/// Name of the boundary tag set by [`disk_mesh`] (the whole circle).
pub const DISK_BOUNDARY_TAG: &str = "boundary";

/// Index of vertex `j` (mod `6i`) of ring `i >= 1` (ring 0 is the centre, vertex 0).
fn ring_vertex(i: usize, j: usize) -> usize {
    1 + 3 * i * (i - 1) + j % (6 * i)
}

/// A triangle mesh of the disk of radius `radius` centred at the origin with `n_radial`
/// elements along the radius (see the module doc for the layout), boundary tag
/// [`DISK_BOUNDARY_TAG`].
///
/// Errors: `radius <= 0` or non-finite, `n_radial < 1` ([`crate::error::FemError::InvalidParameter`]).
pub fn disk_mesh(radius: f64, n_radial: usize) -> Result<Mesh2d, Fem2dError> {
    crate::error::require_positive("radius", radius)?;
    crate::error::require_count("n_radial", n_radial, 1)?;
    let n = n_radial;
    let mut vertices = Vec::with_capacity(1 + 3 * n * (n + 1));
    vertices.push([0.0, 0.0]);
    for i in 1..=n {
        let r = radius * i as f64 / n as f64;
        let m = 6 * i;
        for j in 0..m {
            let th = 2.0 * PI * j as f64 / m as f64;
            vertices.push([r * th.cos(), r * th.sin()]);
        }
    }
    let mut triangles = Vec::with_capacity(6 * n * n);
    // Centre fan.
    for j in 0..6 {
        triangles.push([0, ring_vertex(1, j), ring_vertex(1, j + 1)]);
    }
    // Annuli: merge the inner loop (6(i-1) vertices) and the outer loop (6i vertices) by
    // angle; each step advances the loop whose next vertex has the smaller angle
    // (fractions p/m_in vs q/m_out compared exactly in integers).
    for i in 2..=n {
        let (m_in, m_out) = (6 * (i - 1), 6 * i);
        let (mut p, mut q) = (0usize, 0usize);
        while p < m_in || q < m_out {
            // next angles: (p+1)/m_in vs (q+1)/m_out
            let advance_outer = q < m_out && (p >= m_in || (q + 1) * m_in <= (p + 1) * m_out);
            if advance_outer {
                triangles.push([
                    ring_vertex(i - 1, p),
                    ring_vertex(i, q),
                    ring_vertex(i, q + 1),
                ]);
                q += 1;
            } else {
                triangles.push([
                    ring_vertex(i - 1, p),
                    ring_vertex(i, q),
                    ring_vertex(i - 1, p + 1),
                ]);
                p += 1;
            }
        }
    }
    let mut mesh = Mesh2d::new(vertices, triangles)?;
    mesh.tag_boundary(DISK_BOUNDARY_TAG, |_| true)?;
    Ok(mesh)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_area_and_boundary() {
        for n in [1, 2, 5] {
            let m = disk_mesh(2.0, n).unwrap();
            assert_eq!(m.n_vertices(), 1 + 3 * n * (n + 1));
            assert_eq!(m.n_cells(), 6 * n * n);
            let b = m.tagged_edges(DISK_BOUNDARY_TAG).unwrap();
            assert_eq!(b.len(), 6 * n);
            // area of the inscribed regular 6n-gon: (6n/2) R^2 sin(2π/6n) (exact)
            let area: f64 = (0..m.n_cells()).map(|t| m.area(t)).sum();
            let k = 6.0 * n as f64;
            let exact = 0.5 * k * 4.0 * (2.0 * PI / k).sin();
            assert!((area - exact).abs() < 1e-12 * exact, "{area} vs {exact}");
            // boundary vertices on the circle
            for e in &b {
                let [a, c] = m.edges()[e.edge];
                for v in [a, c] {
                    let x = m.vertices()[v];
                    assert!((x[0].hypot(x[1]) - 2.0).abs() < 1e-12);
                }
            }
        }
    }

    #[test]
    fn rejects_bad_input() {
        assert!(disk_mesh(1.0, 0).is_err());
        assert!(disk_mesh(0.0, 3).is_err());
        assert!(disk_mesh(f64::NAN, 3).is_err());
    }
}
