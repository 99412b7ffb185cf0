//! The VTK snapshot of an acoustic state (ParaView): pressure and velocity at the cell
//! centroids.
use anyhow::Result;
use phlex_fem::io::vtk::{Location, Vtu};
use phlex_fem::models::continuum::wave::AcousticModel;

/// The VTK file of one state: pressure and velocity at the cell centroids (CG1 pressure
/// as the vertex average, RT1 velocity evaluated at the centroid).
pub fn vtu(model: &AcousticModel, e: &[f64]) -> Result<String> {
    let mesh = model.mesh();
    let nc = mesh.n_cells();
    let (p, u) = model.fields(e)?;
    let p_cg1 = p.len() == mesh.n_vertices();
    let c = 1.0 / 3.0;
    let mut p_cell = Vec::with_capacity(nc);
    let mut u_cell = Vec::with_capacity(2 * nc);
    for t in 0..nc {
        let tri = mesh.triangles()[t];
        p_cell.push(if p_cg1 {
            c * (p[tri[0]] + p[tri[1]] + p[tri[2]])
        } else {
            p[t]
        });
        match model.rt_space() {
            Some(rt) => {
                let x = mesh.cell_coords(t);
                let centroid = [0, 1].map(|a| c * (x[0][a] + x[1][a] + x[2][a]));
                u_cell.extend(rt.eval_in_cell(&u, t, centroid));
            }
            None => u_cell.extend([u[t], u[nc + t]]),
        }
    }
    Ok(Vtu::new(mesh)
        .field("p (pressure) [Pa]", Location::Cell, 1, p_cell)?
        .field("u (velocity) [m/s]", Location::Cell, 2, u_cell)?
        .to_xml())
}
