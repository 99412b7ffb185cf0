//! The VTK snapshot of a plate state (ParaView): velocity (and Mindlin rotation rates) at
//! the vertices, moments (and Mindlin shear forces) at the cell centroids.
use anyhow::Result;
use phlex_fem::io::vtk::{Location, Vtu};
use phlex_fem::models::plate::mindlin_bjt::BjtField;
use phlex_fem::models::plate::{KirchhoffField, KirchhoffModel, LaminatedField, PlateField};

use super::model::{afw_block, thermo_plate_state, PlateModel};

/// The VTK file of one state: velocity (and Mindlin rotation rates) at the vertices,
/// moments (and Mindlin shear forces) at the cell centroids.
pub fn vtu(model: &PlateModel, e: &[f64]) -> Result<String> {
    if let PlateModel::Kirchhoff(m) = model {
        return kirchhoff_vtu(m, e);
    }
    if let PlateModel::ThermoKirchhoff(m) = model {
        let mut v = Vtu::new(m.plate().velocity_space().mesh());
        let w = m
            .plate()
            .field_coefficients(&thermo_plate_state(m, e), KirchhoffField::Velocity)?;
        v = v.space_field(
            "e_w (vertical velocity) [m/s]",
            Location::Point,
            m.plate().velocity_space(),
            &w,
        )?;
        return Ok(v.to_xml());
    }
    if let PlateModel::MindlinBjt { model, .. } = model {
        // quadrilateral cells; every field averaged to the grid vertices
        let grid = model.quad_mesh()?;
        let mut v = Vtu::new_quad(&grid);
        for f in BjtField::ALL {
            v = v.field(f.name(), Location::Point, 1, model.vertex_values(e, f)?)?;
        }
        return Ok(v.to_xml());
    }
    let mesh = model.mesh();
    let mut v = Vtu::new(mesh);
    let c = 1.0 / 3.0;
    let hhj_cells = |sk: &phlex_fem::element::triangle::hhj::HhjSpace, m: &[f64]| -> Vec<f64> {
        (0..mesh.n_cells())
            .flat_map(|t| sk.evaluate_in_cell(m, t, [c, c]))
            .collect()
    };
    match model {
        PlateModel::Mindlin(model) => {
            for (field, name, loc) in [
                (
                    PlateField::Velocity,
                    "e_w (vertical velocity) [m/s]",
                    Location::Point,
                ),
                (
                    PlateField::RotationRate,
                    "e_theta (rotation rates) [rad/s]",
                    Location::Point,
                ),
                (
                    PlateField::Moments,
                    "M (Mxx, Mxy, Myy) [N m/m]",
                    Location::Cell,
                ),
                (PlateField::ShearForces, "q (qx, qy) [N/m]", Location::Cell),
            ] {
                let u = model.field_coefficients(e, field)?;
                v = v.space_field(name, loc, model.space(field), &u)?;
            }
        }
        PlateModel::MindlinAfw { model, d, .. } => {
            let sd = model.dg_space();
            for (b, name) in [
                (0, "e_w (vertical velocity) [m/s]"),
                (1, "e_theta_x (rotation rate) [rad/s]"),
                (2, "e_theta_y (rotation rate) [rad/s]"),
            ] {
                v = v.space_field(name, Location::Cell, sd, &afw_block(model, d, e, b))?;
            }
        }
        PlateModel::KirchhoffC1(model) => {
            // vertex value DOFs of the Bell/Argyris space are entries 6v
            let w = model.velocity_coefficients(e)?;
            let wv: Vec<f64> = (0..mesh.n_vertices()).map(|i| w[6 * i]).collect();
            v = v.field("e_w (vertical velocity) [m/s]", Location::Point, 1, wv)?;
            let m = model.moment_coefficients(e)?;
            v = v.space_field(
                "M (Mxx, Mxy, Myy) [N m/m]",
                Location::Cell,
                model.moment_space(),
                &m,
            )?;
        }
        PlateModel::LaminatedKirchhoff(model) => {
            for (field, name, space) in [
                (
                    LaminatedField::Velocity,
                    "e_w (vertical velocity) [m/s]",
                    model.velocity_space(),
                ),
                (
                    LaminatedField::InPlaneVelocity,
                    "e_u (in-plane velocity) [m/s]",
                    model.in_plane_space(),
                ),
            ] {
                let u = model.field_coefficients(e, field)?;
                v = v.space_field(name, Location::Point, space, &u)?;
            }
            let n = model.field_coefficients(e, LaminatedField::MembraneStress)?;
            v = v.space_field(
                "N (Nxx, Nxy, Nyy) [N/m]",
                Location::Cell,
                model.membrane_space(),
                &n,
            )?;
            let m = model.field_coefficients(e, LaminatedField::Moments)?;
            v = v.field(
                "M (Mxx, Mxy, Myy) [N m/m]",
                Location::Cell,
                3,
                hhj_cells(model.moment_space(), &m),
            )?;
        }
        PlateModel::LaminatedMindlin(model) => {
            for (field, name, loc) in [
                (
                    LaminatedField::Velocity,
                    "e_w (vertical velocity) [m/s]",
                    Location::Point,
                ),
                (
                    LaminatedField::InPlaneVelocity,
                    "e_u (in-plane velocity) [m/s]",
                    Location::Point,
                ),
                (
                    LaminatedField::RotationRate,
                    "e_theta (rotation rates) [rad/s]",
                    Location::Point,
                ),
                (
                    LaminatedField::MembraneStress,
                    "N (Nxx, Nxy, Nyy) [N/m]",
                    Location::Cell,
                ),
                (
                    LaminatedField::Moments,
                    "M (Mxx, Mxy, Myy) [N m/m]",
                    Location::Cell,
                ),
                (
                    LaminatedField::ShearForces,
                    "q (qx, qy) [N/m]",
                    Location::Cell,
                ),
            ] {
                let u = model.field_coefficients(e, field)?;
                v = v.space_field(name, loc, model.space(field), &u)?;
            }
        }
        PlateModel::Kirchhoff(_)
        | PlateModel::MindlinBjt { .. }
        | PlateModel::ThermoKirchhoff(_) => {
            unreachable!("written above")
        }
    }
    Ok(v.to_xml())
}

/// The VTK file of a Kirchhoff HHJ plate state: $e_w$ at the vertices, moments at the cell
/// centroids (also the plate part of a plate assembly).
pub fn kirchhoff_vtu(model: &KirchhoffModel, e: &[f64]) -> Result<String> {
    let mesh = model.velocity_space().mesh();
    let w = model.field_coefficients(e, KirchhoffField::Velocity)?;
    let mut v = Vtu::new(mesh).space_field(
        "e_w (vertical velocity) [m/s]",
        Location::Point,
        model.velocity_space(),
        &w,
    )?;
    let m = model.field_coefficients(e, KirchhoffField::Moments)?;
    let c = 1.0 / 3.0;
    let cells: Vec<f64> = (0..mesh.n_cells())
        .flat_map(|t| model.moment_space().evaluate_in_cell(&m, t, [c, c]))
        .collect();
    v = v.field("M (Mxx, Mxy, Myy) [N m/m]", Location::Cell, 3, cells)?;
    Ok(v.to_xml())
}
