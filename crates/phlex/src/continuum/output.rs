//! The `[output]` tables of the continuum model files: [`FieldOutput`] with point probes
//! ([`FieldProbe`]) and VTK snapshots for the 2D and 3D models, [`LineOutput`] with axial
//! probes ([`LineProbe`]) for the one-dimensional ones (`[heat]`, `[thermoelastic_rod]`,
//! `[thermoelastic_beam]`).
use serde::Deserialize;

/// A probe: the value of a field (component) at a point.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldProbe {
    /// Column name.
    pub name: String,
    /// Field (model dependent; default: the model's primary field, e.g. the vertical
    /// velocity of a plate).
    pub field: Option<String>,
    /// Position \[m\].
    pub x: f64,
    /// Position \[m\].
    pub y: f64,
    /// Position \[m\] (3D models).
    pub z: Option<f64>,
}

/// `[output]` of a continuum model.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct FieldOutput {
    /// Point probes.
    pub probes: Vec<FieldProbe>,
    /// Write SVG plots.
    pub plots: bool,
    /// Write VTK snapshots (`fields/<kind>_NNNN.vtu` + `<kind>.pvd`) every `vtk_every`
    /// recorded samples (0: none).
    pub vtk_every: usize,
}

impl Default for FieldOutput {
    fn default() -> Self {
        Self {
            probes: Vec::new(),
            plots: true,
            vtk_every: 0,
        }
    }
}

/// A validated point probe: column name, index of its field in the model's field list,
/// point (z = 0 in 2D).
pub type PointProbe = (String, usize, [f64; 3]);

impl FieldOutput {
    /// The probes as [`PointProbe`]s of a `dim`-dimensional model whose probe fields are
    /// `fields` (default: the first): an unknown field, or `z` on a 2D model, is an error
    /// naming the probe.
    pub fn point_probes(&self, fields: &[&str], dim: usize) -> Result<Vec<PointProbe>, String> {
        self.probes
            .iter()
            .map(|pr| {
                let field = pr
                    .field
                    .as_deref()
                    .or(fields.first().copied())
                    .unwrap_or("");
                let Some(k) = fields.iter().position(|n| *n == field) else {
                    return Err(format!(
                        "output.probes '{}': unknown field '{field}' (fields: {})",
                        pr.name,
                        fields.join(", ")
                    ));
                };
                if dim == 2 && pr.z.is_some() {
                    return Err(format!("output.probes '{}': z is a 3D coordinate", pr.name));
                }
                Ok((pr.name.clone(), k, [pr.x, pr.y, pr.z.unwrap_or(0.0)]))
            })
            .collect()
    }
}

/// A probe of a one-dimensional model (`[heat]`, `[thermoelastic_rod]`,
/// `[thermoelastic_beam]`): the value of a field at an axial position.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LineProbe {
    /// Column name.
    pub name: String,
    /// Field (model dependent; default: the model's first field, [`LineProbe::field`]).
    pub field: Option<String>,
    /// Axial position \[m\].
    pub x: f64,
    /// Height in the section, $-h/2 \le z \le h/2$ \[m\] (the beam's `theta` probes only).
    pub z: Option<f64>,
}

impl LineProbe {
    /// The probe's field: the value paired with its `field` key in `fields` (default: the
    /// first entry), after checking that $0 \le x \le$ `length`; the messages name the probe
    /// and call the body `body` (`"rod"`, `"beam"`).
    pub fn field<T: Copy>(
        &self,
        fields: &[(&str, T)],
        body: &str,
        length: f64,
    ) -> Result<T, String> {
        let name = &self.name;
        let key = self
            .field
            .as_deref()
            .or_else(|| fields.first().map(|f| f.0))
            .unwrap_or_default();
        let Some(&(_, value)) = fields.iter().find(|f| f.0 == key) else {
            let names: Vec<&str> = fields.iter().map(|f| f.0).collect();
            return Err(format!(
                "output.probes '{name}': unknown field '{key}' (fields: {})",
                names.join(", ")
            ));
        };
        if !(0.0..=length).contains(&self.x) {
            return Err(format!(
                "output.probes '{name}': x = {} is outside the {body} 0..={length}",
                self.x
            ));
        }
        Ok(value)
    }
}

/// `[output]` of a one-dimensional model (rod, beam): like [`FieldOutput`] without VTK
/// snapshots, and with [`LineProbe`]s.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct LineOutput {
    /// Point probes.
    pub probes: Vec<LineProbe>,
    /// Write SVG plots.
    pub plots: bool,
}

impl Default for LineOutput {
    fn default() -> Self {
        let FieldOutput { plots, .. } = FieldOutput::default();
        Self {
            probes: Vec::new(),
            plots,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn probe(text: &str) -> LineProbe {
        toml::from_str(text).unwrap()
    }

    /// The field keys, the default field and the messages of the one-dimensional probes
    /// (the texts the rod and beam runners gave before they shared [`LineProbe`]).
    #[test]
    fn line_probe_fields_and_messages() {
        let rod = [("theta", 0), ("v", 1), ("u", 2)];
        let beam = [("v", false), ("theta", true)];
        assert_eq!(probe("name = 'a'\nx = 0.5").field(&rod, "rod", 1.0), Ok(0));
        assert_eq!(
            probe("name = 'a'\nfield = 'u'\nx = 1.0").field(&rod, "rod", 1.0),
            Ok(2)
        );
        assert_eq!(
            probe("name = 'a'\nx = 0.0").field(&beam, "beam", 1.0),
            Ok(false)
        );
        assert_eq!(
            probe("name = 'T'\nfield = 'w'\nx = 0.5").field(&rod, "rod", 1.0),
            Err("output.probes 'T': unknown field 'w' (fields: theta, v, u)".into())
        );
        assert_eq!(
            probe("name = 'T'\nfield = 'u'\nx = 0.5").field(&beam, "beam", 1.0),
            Err("output.probes 'T': unknown field 'u' (fields: v, theta)".into())
        );
        assert_eq!(
            probe("name = 'T'\nfield = 'theta'\nx = 2.5\nz = 0.1").field(&beam, "beam", 2.0),
            Err("output.probes 'T': x = 2.5 is outside the beam 0..=2".into())
        );
        assert!(toml::from_str::<LineProbe>("name = 'a'\nx = 0.5\ny = 0.0").is_err());
        let out: LineOutput = toml::from_str("").unwrap();
        assert_eq!((out.probes.len(), out.plots), (0, true));
        let d = LineOutput::default();
        assert_eq!((d.probes.len(), d.plots), (0, true));
        assert!(toml::from_str::<LineOutput>("every = 2").is_err());
    }
}
