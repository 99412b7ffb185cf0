//! The VTK snapshot of an elasticity state (ParaView): velocity at the vertices, stress
//! (and temperature) of the 2D, 3D and thermoelastic models.
use anyhow::Result;
use phlex_fem::io::vtk::{Location, Vtu};
use phlex_fem::models::continuum::elasticity::ElasticField;
use phlex_fem::models::continuum::thermoelasticity::ThermoField2d;

use super::build::{thermo3d_field, ElasticModel};

/// The VTK file of one state: velocity at the vertices, stress at the cell centroids.
pub fn vtu(model: &ElasticModel, e: &[f64]) -> Result<String> {
    Ok(match model {
        ElasticModel::Plane(m) => {
            let vs = m.space(ElasticField::Velocity);
            let ss = m.space(ElasticField::Stress);
            Vtu::new(vs.mesh())
                .space_field(
                    "v (velocity) [m/s]",
                    Location::Point,
                    vs,
                    &m.field_coefficients(e, ElasticField::Velocity)?,
                )?
                .space_field(
                    "sigma (xx, xy, yy) [Pa]",
                    Location::Cell,
                    ss,
                    &m.field_coefficients(e, ElasticField::Stress)?,
                )?
                .to_xml()
        }
        ElasticModel::Solid(m) => {
            let vs = m.space(ElasticField::Velocity);
            let ss = m.space(ElasticField::Stress);
            Vtu::new_3d(vs.mesh())
                .space_field_3d(
                    "v (velocity) [m/s]",
                    Location::Point,
                    vs,
                    &m.field_coefficients(e, ElasticField::Velocity)?,
                )?
                .space_field_3d(
                    "sigma (xx, yy, zz, yz, xz, xy) [Pa]",
                    Location::Cell,
                    ss,
                    &m.field_coefficients(e, ElasticField::Stress)?,
                )?
                .to_xml()
        }
        ElasticModel::ThermoPlane(m) => {
            let mut v = Vtu::new(m.space(ThermoField2d::Velocity).mesh());
            for (f, name, loc) in [
                (
                    ThermoField2d::Velocity,
                    "v (velocity) [m/s]",
                    Location::Point,
                ),
                (
                    ThermoField2d::Stress,
                    "sigma (xx, xy, yy) [Pa]",
                    Location::Cell,
                ),
                (
                    ThermoField2d::Temperature,
                    "theta ((T - T0)/T0)",
                    Location::Point,
                ),
            ] {
                v = v.space_field(name, loc, m.space(f), &m.field_coefficients(e, f)?)?;
            }
            v.to_xml()
        }
        ElasticModel::ThermoSolid(m) => {
            let mut v = Vtu::new_3d(m.space(ThermoField2d::Velocity).mesh());
            for (f, name, loc) in [
                (
                    ThermoField2d::Velocity,
                    "v (velocity) [m/s]",
                    Location::Point,
                ),
                (
                    ThermoField2d::Stress,
                    "sigma (xx, yy, zz, yz, xz, xy) [Pa]",
                    Location::Cell,
                ),
                (
                    ThermoField2d::Temperature,
                    "theta ((T - T0)/T0)",
                    Location::Point,
                ),
            ] {
                v = v.space_field_3d(name, loc, m.space(f), &thermo3d_field(m, e, f))?;
            }
            v.to_xml()
        }
    })
}
