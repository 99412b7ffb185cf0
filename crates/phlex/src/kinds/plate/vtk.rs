//! The VTK snapshot of a plate state (ParaView): velocity (and Mindlin rotation rates) at
//! the vertices, moments (and Mindlin shear forces) at the cell centroids.
use anyhow::Result;
use phlex_fem::io::vtk::{Location, Vtu};
use phlex_fem::models::plate::mindlin_bjt::BjtField;
use phlex_fem::models::plate::{KirchhoffField, KirchhoffModel, LaminatedField, PlateField};
use phlex_fem::space::Space2d;
use phlex_fem::Fem2dError;

use super::model::{afw_block, thermo_plate_state, PlateModel};

/// A VTK field of a plate snapshot: its label (symbol, meaning, unit) and where it lives.
type Label = (&'static str, Location);

/// The vertical velocity $e_w$ at the vertices.
const E_W: Label = ("e_w (vertical velocity) [m/s]", Location::Point);
/// The Mindlin rotation rates $e_\theta$ at the vertices.
const E_THETA: Label = ("e_theta (rotation rates) [rad/s]", Location::Point);
/// The in-plane (membrane) velocity $e_u$ of a laminate at the vertices.
const E_U: Label = ("e_u (in-plane velocity) [m/s]", Location::Point);
/// The bending moments at the cell centroids.
const MOMENTS: Label = ("M (Mxx, Mxy, Myy) [N m/m]", Location::Cell);
/// The Mindlin shear forces at the cell centroids.
const SHEAR: Label = ("q (qx, qy) [N/m]", Location::Cell);
/// The membrane stress resultants of a laminate at the cell centroids.
const MEMBRANE: Label = ("N (Nxx, Nxy, Nyy) [N/m]", Location::Cell);

/// The fields of a Mindlin plate snapshot.
const MINDLIN: [(PlateField, Label); 4] = [
    (PlateField::Velocity, E_W),
    (PlateField::RotationRate, E_THETA),
    (PlateField::Moments, MOMENTS),
    (PlateField::ShearForces, SHEAR),
];

/// The fields of a laminated Mindlin plate snapshot.
const LAMINATED_MINDLIN: [(LaminatedField, Label); 6] = [
    (LaminatedField::Velocity, E_W),
    (LaminatedField::InPlaneVelocity, E_U),
    (LaminatedField::RotationRate, E_THETA),
    (LaminatedField::MembraneStress, MEMBRANE),
    (LaminatedField::Moments, MOMENTS),
    (LaminatedField::ShearForces, SHEAR),
];

/// `v` with the fields `fields` of a plate model whose field `f` has the coefficients
/// `coefficients(f)` in the space `space(f)`.
fn space_fields<'m, 's, F: Copy>(
    mut v: Vtu<'m>,
    fields: &[(F, Label)],
    space: impl Fn(F) -> &'s Space2d,
    coefficients: impl Fn(F) -> Result<Vec<f64>, Fem2dError>,
) -> Result<Vtu<'m>> {
    for &(field, (name, loc)) in fields {
        v = v.space_field(name, loc, space(field), &coefficients(field)?)?;
    }
    Ok(v)
}

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
        v = v.space_field(E_W.0, E_W.1, m.plate().velocity_space(), &w)?;
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
            let coefficients = |f| model.field_coefficients(e, f);
            v = space_fields(v, &MINDLIN, |f| model.space(f), coefficients)?;
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
            v = v.field(E_W.0, E_W.1, 1, wv)?;
            let m = model.moment_coefficients(e)?;
            v = v.space_field(MOMENTS.0, MOMENTS.1, model.moment_space(), &m)?;
        }
        PlateModel::LaminatedKirchhoff(model) => {
            for (field, (name, loc), space) in [
                (LaminatedField::Velocity, E_W, model.velocity_space()),
                (LaminatedField::InPlaneVelocity, E_U, model.in_plane_space()),
                (
                    LaminatedField::MembraneStress,
                    MEMBRANE,
                    model.membrane_space(),
                ),
            ] {
                let u = model.field_coefficients(e, field)?;
                v = v.space_field(name, loc, space, &u)?;
            }
            let m = model.field_coefficients(e, LaminatedField::Moments)?;
            let cells = hhj_cells(model.moment_space(), &m);
            v = v.field(MOMENTS.0, MOMENTS.1, 3, cells)?;
        }
        PlateModel::LaminatedMindlin(model) => {
            let coefficients = |f| model.field_coefficients(e, f);
            v = space_fields(v, &LAMINATED_MINDLIN, |f| model.space(f), coefficients)?;
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
    let mut v = Vtu::new(mesh).space_field(E_W.0, E_W.1, model.velocity_space(), &w)?;
    let m = model.field_coefficients(e, KirchhoffField::Moments)?;
    let c = 1.0 / 3.0;
    let cells: Vec<f64> = (0..mesh.n_cells())
        .flat_map(|t| model.moment_space().evaluate_in_cell(&m, t, [c, c]))
        .collect();
    v = v.field(MOMENTS.0, MOMENTS.1, 3, cells)?;
    Ok(v.to_xml())
}
