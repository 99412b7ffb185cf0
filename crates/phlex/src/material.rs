//! The checks of the material keys shared by the kinds (the one vocabulary of
//! [`crate::vocabulary`]: `youngs_modulus`, `poisson_ratio`, `density`, `heat_capacity`,
//! `conductivity`, `reference_temperature`, `thermal_expansion`, …): [`Table`] checks the
//! values of one table of a model file, and its errors name the key (`plate.density`) and
//! its line. The kinds call these before they hand the values to `phlex-fem`, whose own
//! checks name the library's symbols instead of the file's keys.
use serde::de::MapAccess;
use toml::Spanned;

use crate::error::{error_at, ModelError};
use crate::keys::KeyGroup;

/// An isotropic linear elastic material (plates, elasticity).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Isotropic {
    /// Young's modulus $E > 0$ \[Pa\].
    pub youngs_modulus: f64,
    /// Poisson's ratio $-1 < \nu < \tfrac12$.
    pub poisson_ratio: f64,
    /// Density $\rho > 0$ \[kg/m³\].
    pub density: f64,
}

/// The heat conduction data of a thermoelastic table (thesis 004 §5.1.1, §5.1.3).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thermal {
    /// Volumetric heat capacity $C = \rho c > 0$ \[J/(m³ K)\].
    pub heat_capacity: f64,
    /// Thermal conductivity $k > 0$ \[W/(m K)\].
    pub conductivity: f64,
    /// Reference temperature $T_0 > 0$ \[K\].
    pub reference_temperature: f64,
    /// Linear thermal expansion coefficient $\beta \ge 0$ \[1/K\] (0: uncoupled).
    pub thermal_expansion: f64,
}

/// The four heat conduction keys of the thermoelastic tables (`[elasticity.thermal]`,
/// `[plate.thermal]`, `[thermoelastic_beam]`), all required: `heat_capacity`,
/// `conductivity`, `reference_temperature`, `thermal_expansion` (checked by
/// [`Table::thermal`]). Read as a [`KeyGroup`] of the table ([`crate::keys::WithKeys`]).
#[derive(Debug, Clone)]
pub struct ThermalKeys {
    /// Volumetric heat capacity $\rho c$ \[J/(m³ K)\].
    pub heat_capacity: Spanned<f64>,
    /// Thermal conductivity $k$ \[W/(m K)\].
    pub conductivity: Spanned<f64>,
    /// Reference temperature $T_0$ \[K\].
    pub reference_temperature: Spanned<f64>,
    /// Linear thermal expansion coefficient $\beta$ \[1/K\] (0: uncoupled).
    pub thermal_expansion: Spanned<f64>,
}

impl Default for ThermalKeys {
    /// Placeholders until the keys are read (all four are [`KeyGroup::REQUIRED`]).
    fn default() -> Self {
        let zero = || Spanned::new(0..0, 0.0);
        Self {
            heat_capacity: zero(),
            conductivity: zero(),
            reference_temperature: zero(),
            thermal_expansion: zero(),
        }
    }
}

impl KeyGroup for ThermalKeys {
    const KEYS: &'static [&'static str] = &[
        "heat_capacity",
        "conductivity",
        "reference_temperature",
        "thermal_expansion",
    ];
    const REQUIRED: &'static [&'static str] = Self::KEYS;

    fn read<'de, M: MapAccess<'de>>(&mut self, key: &str, map: &mut M) -> Result<(), M::Error> {
        let v = map.next_value()?;
        match key {
            "heat_capacity" => self.heat_capacity = v,
            "conductivity" => self.conductivity = v,
            "reference_temperature" => self.reference_temperature = v,
            _ => self.thermal_expansion = v,
        }
        Ok(())
    }
}

/// The keys of one table of a model file: `table` (`"plate"`, `"elasticity.thermal"`) in
/// `file`, whose `text` gives the lines of the errors.
#[derive(Debug, Clone, Copy)]
pub struct Table<'a> {
    /// File name in messages.
    pub file: &'a str,
    /// The text of the file.
    pub text: &'a str,
    /// Dotted name of the table.
    pub table: &'a str,
}

impl<'a> Table<'a> {
    /// The table `table` of `file` (with its `text`).
    pub fn new(file: &'a str, text: &'a str, table: &'a str) -> Self {
        Self { file, text, table }
    }

    /// The value of the choice key `key`: the entry of `options` named by the string `v`
    /// (the first entry when the key is absent); another string is an error
    /// "`table.key` = 'x': use "a", "b" or "c"" at its line.
    ///
    /// # Panics
    /// If `options` is empty.
    pub fn choice<T: Copy>(
        &self,
        key: &str,
        v: Option<&Spanned<String>>,
        options: &[(&str, T)],
    ) -> Result<T, ModelError> {
        let Some(v) = v else {
            return Ok(options[0].1);
        };
        if let Some((_, t)) = options.iter().find(|(n, _)| *n == v.get_ref()) {
            return Ok(*t);
        }
        let names: Vec<String> = options.iter().map(|(n, _)| format!("\"{n}\"")).collect();
        let list = match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
            _ => names.join(""),
        };
        Err(error_at(
            self.file,
            self.text,
            v.span(),
            format!("{}.{key} = '{}': use {list}", self.table, v.get_ref()),
        ))
    }

    /// The error "`table.key` = value: must …" at the line of `v`.
    fn error(&self, key: &str, v: &Spanned<f64>, requirement: &str) -> ModelError {
        error_at(
            self.file,
            self.text,
            v.span(),
            format!(
                "{}.{key} = {}: must be {requirement}",
                self.table,
                v.get_ref()
            ),
        )
    }

    /// The value of `key`, finite and > 0.
    pub fn positive(&self, key: &str, v: &Spanned<f64>) -> Result<f64, ModelError> {
        let x = *v.get_ref();
        if x.is_finite() && x > 0.0 {
            Ok(x)
        } else {
            Err(self.error(key, v, "finite and > 0"))
        }
    }

    /// The value of `key`, finite and ≥ 0.
    pub fn non_negative(&self, key: &str, v: &Spanned<f64>) -> Result<f64, ModelError> {
        let x = *v.get_ref();
        if x.is_finite() && x >= 0.0 {
            Ok(x)
        } else {
            Err(self.error(key, v, "finite and >= 0"))
        }
    }

    /// A Poisson's ratio `key`: $-1 < \nu < \tfrac12$ (positive definite isotropic
    /// elasticity).
    pub fn poisson_ratio(&self, key: &str, v: &Spanned<f64>) -> Result<f64, ModelError> {
        let x = *v.get_ref();
        if x > -1.0 && x < 0.5 {
            Ok(x)
        } else {
            Err(self.error(key, v, "in (-1, 0.5)"))
        }
    }

    /// The isotropic material of the keys `youngs_modulus`, `poisson_ratio`, `density`.
    pub fn isotropic(
        &self,
        youngs_modulus: &Spanned<f64>,
        poisson_ratio: &Spanned<f64>,
        density: &Spanned<f64>,
    ) -> Result<Isotropic, ModelError> {
        Ok(Isotropic {
            youngs_modulus: self.positive("youngs_modulus", youngs_modulus)?,
            poisson_ratio: self.poisson_ratio("poisson_ratio", poisson_ratio)?,
            density: self.positive("density", density)?,
        })
    }

    /// The heat conduction data of the keys `heat_capacity`, `conductivity`,
    /// `reference_temperature` and `thermal_expansion`.
    pub fn thermal(&self, keys: &ThermalKeys) -> Result<Thermal, ModelError> {
        Ok(Thermal {
            heat_capacity: self.positive("heat_capacity", &keys.heat_capacity)?,
            conductivity: self.positive("conductivity", &keys.conductivity)?,
            reference_temperature: self
                .positive("reference_temperature", &keys.reference_temperature)?,
            thermal_expansion: self.non_negative("thermal_expansion", &keys.thermal_expansion)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_name_the_key_and_the_line() {
        let text = "[plate]\nyoungs_modulus = 1.0\npoisson_ratio = 0.5\ndensity = 1.0\n";
        let t = Table::new("p.toml", text, "plate");
        let v = |k: &str, x: f64| {
            let start = text.find(k).unwrap();
            Spanned::new(start..start + k.len(), x)
        };
        let isotropic = |e: f64, nu: f64, rho: f64| {
            t.isotropic(
                &v("youngs_modulus", e),
                &v("poisson_ratio", nu),
                &v("density", rho),
            )
        };
        let e = isotropic(1.0, 0.5, 1.0).unwrap_err();
        assert_eq!(e.line, 3);
        assert_eq!(e.message, "plate.poisson_ratio = 0.5: must be in (-1, 0.5)");
        let ok = isotropic(2.0, 0.3, 7.0).unwrap();
        assert_eq!(
            (ok.youngs_modulus, ok.poisson_ratio, ok.density),
            (2.0, 0.3, 7.0)
        );
        let e = t.positive("density", &v("density", f64::NAN)).unwrap_err();
        assert_eq!(
            (e.line, e.message.as_str()),
            (4, "plate.density = NaN: must be finite and > 0")
        );
        assert!(t.non_negative("density", &v("density", 0.0)).is_ok());
    }
}
