//! Input and output of meshes and fields: Gmsh `.msh` import ([`gmsh`]) and VTK output for
//! ParaView ([`vtk`]).
pub mod gmsh;
pub mod vtk;
