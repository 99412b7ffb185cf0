//! The mesh keys of the continuum tables: 2D ([`MeshSpec`]), a structured rectangle or a
//! Gmsh file; 1D ([`LineSpec`]), an interval of equal elements.
use std::path::{Path, PathBuf};

use phlex_fem::io::gmsh::GmshMesh;
use phlex_fem::mesh::{Diagonal, Mesh2d};
use serde::de::{self, MapAccess};
use toml::Spanned;

use crate::keys::KeyGroup;
use crate::material::Table;

use crate::error::{error_at, ModelError};

/// The 2D mesh keys shared by the continuum tables (`[plate]`, `[elasticity]`,
/// `[acoustics]`): `lx`, `ly`, `nx`, `ny` (and `diagonal`, and the lower-left corner `x0`,
/// `y0`, default 0) of a structured rectangle $[x_0, x_0 + l_x]\times[y_0, y_0 + l_y]$ with
/// edges `left`, `right`, `bottom`, `top`, or `mesh = "file.msh"` (Gmsh ASCII 4.1 or 2.2,
/// path relative to the model file, physical line groups as tags). Read as a
/// [`KeyGroup`] of the kind's table ([`crate::keys::WithKeys`]).
#[derive(Debug, Clone, Default)]
pub struct MeshSpec {
    /// Side length \[m\].
    pub lx: Option<Spanned<f64>>,
    /// Side length \[m\].
    pub ly: Option<Spanned<f64>>,
    /// Cells per side.
    pub nx: Option<Spanned<usize>>,
    /// Cells per side.
    pub ny: Option<Spanned<usize>>,
    /// `"right"` (default) or `"left"`.
    pub diagonal: Option<Spanned<String>>,
    /// Gmsh file, relative to the model file.
    pub mesh: Option<Spanned<String>>,
    /// Lower-left corner of the rectangle \[m\] (default 0).
    pub x0: Option<Spanned<f64>>,
    /// Lower-left corner of the rectangle \[m\] (default 0).
    pub y0: Option<Spanned<f64>>,
}

impl KeyGroup for MeshSpec {
    const KEYS: &'static [&'static str] = &["lx", "ly", "nx", "ny", "diagonal", "mesh", "x0", "y0"];

    fn read<'de, M: MapAccess<'de>>(&mut self, key: &str, map: &mut M) -> Result<(), M::Error> {
        match key {
            "lx" => self.lx = Some(map.next_value()?),
            "ly" => self.ly = Some(map.next_value()?),
            "nx" => self.nx = Some(map.next_value()?),
            "ny" => self.ny = Some(map.next_value()?),
            "diagonal" => self.diagonal = Some(map.next_value()?),
            "mesh" => self.mesh = Some(map.next_value()?),
            "x0" => self.x0 = Some(map.next_value()?),
            "y0" => self.y0 = Some(map.next_value()?),
            other => return Err(de::Error::unknown_field(other, Self::KEYS)),
        }
        Ok(())
    }
}

impl MeshSpec {
    /// Builds the mesh of the table `t` (`plate`, `acoustics`, … for messages) of the model
    /// file `file` (its `text`); `anchor` is the span reported when a key is missing. Errors
    /// name the key and its line.
    pub fn build(
        &self,
        t: &str,
        anchor: std::ops::Range<usize>,
        file: &str,
        text: &str,
    ) -> Result<Mesh2d, ModelError> {
        let keys = Table::new(file, text, t);
        if let Some(name) = &self.mesh {
            keys.exclusive_with_mesh(
                name,
                &[
                    ("lx", self.lx.is_some()),
                    ("ly", self.ly.is_some()),
                    ("nx", self.nx.is_some()),
                    ("ny", self.ny.is_some()),
                    ("diagonal", self.diagonal.is_some()),
                    ("x0", self.x0.is_some()),
                    ("y0", self.y0.is_some()),
                ],
            )?;
            return Ok(GmshMesh::read(keys.path_of(name))
                .map_err(|e| keys.error_at(name.span(), format!("{t}.mesh: {e}")))?
                .mesh);
        }
        let hint = "give lx, ly, nx, ny (structured rectangle) or mesh = \"file.msh\"";
        let len = |v, key| keys.length(key, keys.required(v, key, &anchor, hint)?);
        let count = |v, key| keys.count(key, keys.required(v, key, &anchor, hint)?);
        let (lx, ly) = (len(&self.lx, "lx")?, len(&self.ly, "ly")?);
        let (nx, ny) = (count(&self.nx, "nx")?, count(&self.ny, "ny")?);
        let diagonal = keys.choice(
            "diagonal",
            self.diagonal.as_ref(),
            &[("right", Diagonal::Right), ("left", Diagonal::Left)],
        )?;
        let corner = |v: Option<&Spanned<f64>>, key: &str| -> Result<f64, ModelError> {
            match v {
                None => Ok(0.0),
                Some(v) if v.get_ref().is_finite() => Ok(*v.get_ref()),
                Some(v) => Err(keys.error_at(v.span(), format!("{t}.{key} must be finite"))),
            }
        };
        let (x0, y0) = (
            corner(self.x0.as_ref(), "x0")?,
            corner(self.y0.as_ref(), "y0")?,
        );
        Mesh2d::rectangle(x0, x0 + lx, y0, y0 + ly, nx, ny, diagonal)
            .map_err(|e| keys.error_at(anchor, format!("{t} mesh: {e}")))
    }
}

/// The keys of a one-dimensional domain $[0, L]$ cut into equal elements, shared by the
/// line tables (`[heat]`, `[thermoelastic_rod]`, `[thermoelastic_beam]`): `length`
/// $L > 0$ \[m\] and `elements` $\ge 1$, both required, and the conditions `left`
/// ($x = 0$) and `right` ($x = L$), each one of the kind's names ([`LineSpec::ends`]).
/// Read as a [`KeyGroup`] of the kind's table ([`crate::keys::WithKeys`]).
#[derive(Debug, Clone)]
pub struct LineSpec {
    /// Length $L$ \[m\].
    pub length: Spanned<f64>,
    /// Number of elements.
    pub elements: Spanned<usize>,
    /// Condition at $x = 0$.
    pub left: Option<Spanned<String>>,
    /// Condition at $x = L$.
    pub right: Option<Spanned<String>>,
}

impl Default for LineSpec {
    /// Placeholders until the keys are read (both are [`KeyGroup::REQUIRED`]).
    fn default() -> Self {
        Self {
            length: Spanned::new(0..0, 0.0),
            elements: Spanned::new(0..0, 0),
            left: None,
            right: None,
        }
    }
}

impl KeyGroup for LineSpec {
    const KEYS: &'static [&'static str] = &["length", "elements", "left", "right"];
    const REQUIRED: &'static [&'static str] = &["length", "elements"];

    fn read<'de, M: MapAccess<'de>>(&mut self, key: &str, map: &mut M) -> Result<(), M::Error> {
        match key {
            "length" => self.length = map.next_value()?,
            "elements" => self.elements = map.next_value()?,
            "left" => self.left = Some(map.next_value()?),
            "right" => self.right = Some(map.next_value()?),
            other => return Err(de::Error::unknown_field(other, Self::KEYS)),
        }
        Ok(())
    }
}

impl LineSpec {
    /// The checked length and number of elements of the table `keys`.
    pub fn interval(&self, keys: &Table) -> Result<(f64, usize), ModelError> {
        Ok((
            keys.positive("length", &self.length)?,
            keys.count("elements", &self.elements)?,
        ))
    }

    /// The conditions `left` and `right` of the table `keys`: the entries of `options`
    /// they name (the first when absent; [`Table::choice`]).
    pub fn ends<T: Copy>(&self, keys: &Table, options: &[(&str, T)]) -> Result<[T; 2], ModelError> {
        Ok([
            keys.choice("left", self.left.as_ref(), options)?,
            keys.choice("right", self.right.as_ref(), options)?,
        ])
    }
}

/// The side lengths of the bounding box of `points` (0 for no points).
pub fn extent<const D: usize>(points: impl IntoIterator<Item = [f64; D]>) -> [f64; D] {
    let (mut lo, mut hi) = ([f64::INFINITY; D], [f64::NEG_INFINITY; D]);
    for v in points {
        for c in 0..D {
            lo[c] = lo[c].min(v[c]);
            hi[c] = hi[c].max(v[c]);
        }
    }
    std::array::from_fn(|c| (hi[c] - lo[c]).max(0.0))
}

/// The checks of the mesh keys of a table (`t.lx`, `t.mesh`, …; errors name the key and
/// its line).
impl Table<'_> {
    /// The error `message` at the line of `span`.
    pub fn error_at(&self, span: std::ops::Range<usize>, message: String) -> ModelError {
        error_at(self.file, self.text, span, message)
    }

    /// The path of the mesh file `name`, relative to the folder of the model file.
    pub fn path_of(&self, name: &Spanned<String>) -> PathBuf {
        Path::new(self.file)
            .parent()
            .unwrap_or(Path::new("."))
            .join(name.get_ref())
    }

    /// The error `message(key)` at the first of the keys `given` (name, value) that the
    /// file gives: keys that do not apply to the table as written.
    pub fn reject_given<T>(
        &self,
        given: &[(&str, &Option<Spanned<T>>)],
        message: impl Fn(&str) -> String,
    ) -> Result<(), ModelError> {
        match given.iter().find_map(|(k, v)| v.as_ref().map(|v| (k, v))) {
            Some((key, v)) => Err(self.error_at(v.span(), message(key))),
            None => Ok(()),
        }
    }

    /// An error at `mesh` for the first of the structured-mesh keys `keys` (name, given)
    /// that is given next to `mesh = "file.msh"`.
    pub fn exclusive_with_mesh(
        &self,
        mesh: &Spanned<String>,
        keys: &[(&str, bool)],
    ) -> Result<(), ModelError> {
        let t = self.table;
        match keys.iter().find(|k| k.1) {
            Some((key, _)) => Err(self.error_at(
                mesh.span(),
                format!(
                    "{t}.{key} cannot be combined with {t}.mesh (the Gmsh file defines the mesh)"
                ),
            )),
            None => Ok(()),
        }
    }

    /// The required key `key`, or the error "`t.key` is missing: `hint`" at `anchor`.
    pub fn required<'v, T>(
        &self,
        v: &'v Option<Spanned<T>>,
        key: &str,
        anchor: &std::ops::Range<usize>,
        hint: &str,
    ) -> Result<&'v Spanned<T>, ModelError> {
        v.as_ref().ok_or_else(|| {
            self.error_at(
                anchor.clone(),
                format!("{}.{key} is missing: {hint}", self.table),
            )
        })
    }

    /// Checks that the tag `tag`, given at `span` in the key `key`, is one of the mesh's
    /// `tags`; else the error "`table.key`: unknown boundary 'tag' (tags: …)", or with
    /// `edges` "… unknown edge 'tag' (edges: …)" (the edges of a plate).
    pub fn boundary_tag(
        &self,
        key: &str,
        (tag, span): (&str, std::ops::Range<usize>),
        tags: &[String],
        edges: bool,
    ) -> Result<(), ModelError> {
        if tags.iter().any(|t| t == tag) {
            return Ok(());
        }
        let (what, list) = if edges {
            ("edge", "edges")
        } else {
            ("boundary", "tags")
        };
        Err(self.error_at(
            span,
            format!(
                "{}.{key}: unknown {what} '{tag}' ({list}: {})",
                self.table,
                tags.join(", ")
            ),
        ))
    }

    /// A side length `key`: finite and > 0.
    pub fn length(&self, key: &str, v: &Spanned<f64>) -> Result<f64, ModelError> {
        if !(*v.get_ref() > 0.0 && v.get_ref().is_finite()) {
            return Err(self.error_at(v.span(), format!("{}.{key} must be > 0", self.table)));
        }
        Ok(*v.get_ref())
    }

    /// A number of cells `key`: >= 1.
    pub fn count(&self, key: &str, v: &Spanned<usize>) -> Result<usize, ModelError> {
        if *v.get_ref() == 0 {
            return Err(self.error_at(v.span(), format!("{}.{key} must be >= 1", self.table)));
        }
        Ok(*v.get_ref())
    }
}
