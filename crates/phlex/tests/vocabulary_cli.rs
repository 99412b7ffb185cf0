//! The one vocabulary of model files (issue 13 item 6): a shipped example written with a
//! key of an earlier version of the format fails `phlex check` and `phlex run` with exit
//! code 2, nothing written, and a message that names the old key, its line and the new
//! key (no silent aliases; the table of renamed keys is `phlex::vocabulary::RENAMED`); and
//! the documentation uses the current keys.
mod common;

use std::collections::BTreeMap;

use common::{examples, phlex, root, tmpdir, write_model};
use phlex::vocabulary::check_renamed;

/// One old spelling: the example it is written into, the text `new` of the example that
/// is replaced by `old`, the old key as the message names it, and what the message must
/// say instead (the new key, or the replacement).
struct OldSpelling {
    example: &'static str,
    new: &'static str,
    old: &'static str,
    named: &'static str,
    use_instead: &'static str,
}

const fn case(
    example: &'static str,
    new: &'static str,
    old: &'static str,
    named: &'static str,
    use_instead: &'static str,
) -> OldSpelling {
    OldSpelling {
        example,
        new,
        old,
        named,
        use_instead,
    }
}

/// One old spelling per family of renamed keys.
const CASES: &[OldSpelling] = &[
    // Plates: material letters.
    case(
        "plate_kirchhoff_ssss.toml",
        "youngs_modulus = ",
        "E = ",
        "key `plate.E`",
        "use `youngs_modulus`",
    ),
    case(
        "plate_kirchhoff_ssss.toml",
        "thickness = ",
        "h = ",
        "key `plate.h`",
        "use `thickness`",
    ),
    case(
        "plate_laminated_crossply.toml",
        "youngs_modulus_1 = ",
        "E1 = ",
        "key `plate.plies.E1`",
        "use `youngs_modulus_1`",
    ),
    case(
        "plate_laminated_crossply.toml",
        "angle_deg = ",
        "angle = ",
        "key `plate.plies.angle`",
        "use `angle_deg`",
    ),
    case(
        "plate_thermoelastic_ssss.toml",
        "reference_temperature = ",
        "T0 = ",
        "key `plate.thermal.T0`",
        "use `reference_temperature`",
    ),
    // Continua.
    case(
        "continuum/elastic_bar_2d.toml",
        "poisson_ratio = ",
        "nu = ",
        "key `elasticity.nu`",
        "use `poisson_ratio`",
    ),
    case(
        "continuum/acoustic_duct.toml",
        "sound_speed = ",
        "c = ",
        "key `acoustics.c`",
        "use `sound_speed`",
    ),
    case(
        "continuum/thermoelastic_beam.toml",
        "thermal_expansion = ",
        "expansion = ",
        "key `thermoelastic_beam.expansion`",
        "use `thermal_expansion`",
    ),
    case(
        "continuum/heat_rod.toml",
        "reference_temperature = ",
        "T0 = ",
        "key `heat.T0`",
        "use `reference_temperature`",
    ),
    case(
        "continuum/shallow_water_tank.toml",
        "density = 1000.0\n",
        "density = 1000.0\ng = 10.0\n",
        "key `shallow_water.g`",
        "use the top-level key `gravity = [x, y, z]`",
    ),
    // Multibody bodies.
    case(
        "mbs/floating_beam_tip_force.toml",
        "mass_per_length = ",
        "rho_a = ",
        "key `bodies.beam.rho_a`",
        "use `mass_per_length`",
    ),
    case(
        "mbs/hinged_spatial_beam.toml",
        "poisson_ratio = ",
        "poisson = ",
        "key `bodies.beam.poisson`",
        "use `poisson_ratio`",
    ),
    // EPHS models.
    case(
        "ephs/damped_oscillator.toml",
        "reference_temperature = ",
        "theta0 = ",
        "key `model.theta0`",
        "use `reference_temperature`",
    ),
    case(
        "ephs/damped_oscillator.toml",
        "stiffness = ",
        "k = ",
        "key `components.spring.k`",
        "use `stiffness`",
    ),
    case(
        "ephs/coulomb_oscillator.toml",
        "coulomb_friction = ",
        "mu_c = ",
        "key `components.friction.mu_c`",
        "use `coulomb_friction`",
    ),
    case(
        "ephs/spinning_top.toml",
        "inertia = [0.004, 0.004, 0.002]",
        "gravity = [0.0, 0.0, 9.81]\ninertia = [0.004, 0.004, 0.002]",
        "key `components.top.gravity`",
        "gravity = [0, 0, 9.81] on a body is gravity = [0, 0, -9.81] at the top",
    ),
    case(
        "ephs/oscillator.toml",
        "[[input]]\nport = \"p.f\"\nvalue = ",
        "[inputs]\n\"p.f\" = ",
        "table `[inputs]`",
        "use `[[input]]` tables",
    ),
];

/// The 1-based line of the old key in `text`, the example with its first `new` replaced by
/// `old`: the first line of `old` that is not a line of `new`, counted from the replacement.
fn old_key_line(shipped: &str, new: &str, old: &str) -> usize {
    let start = shipped.find(new).unwrap();
    let offset = old
        .lines()
        .position(|l| !new.lines().any(|n| n == l))
        .unwrap();
    shipped[..start].lines().count() + 1 + offset
}

#[test]
fn every_old_spelling_is_an_error_naming_the_new_key_and_the_line() {
    for (k, c) in CASES.iter().enumerate() {
        let shipped = std::fs::read_to_string(examples(c.example)).unwrap();
        assert!(
            shipped.contains(c.new),
            "{}: `{}` not found",
            c.example,
            c.new
        );
        let text = shipped.replacen(c.new, c.old, 1);
        let line = old_key_line(&shipped, c.new, c.old);
        let (dir, model) = write_model("phlex-vocabulary", &format!("old-{k}"), &text);
        let out = tmpdir("phlex-vocabulary-out", &format!("old-{k}"));
        for args in [
            vec!["check"],
            vec!["run", "-q", "-o", out.to_str().unwrap()],
        ] {
            let o = phlex().args(&args).arg(&model).output().unwrap();
            let err = String::from_utf8_lossy(&o.stderr);
            let what = format!("{} with `{}` ({})", c.example, c.old.trim(), args[0]);
            assert_eq!(o.status.code(), Some(2), "{what}: {err}");
            assert!(
                err.contains(&format!("old-{k}.toml:{line}: {}", c.named)),
                "{what}: expected line {line} and {} in: {err}",
                c.named
            );
            assert!(
                err.contains(c.use_instead),
                "{what}: expected `{}` in: {err}",
                c.use_instead
            );
            assert!(!out.exists(), "{what}: nothing may be written");
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Every ```toml block of `docs/*.md` is free of renamed keys, and every complete model (a
/// block with a `[model]` table) passes `phlex check`, so the documentation cannot drift
/// from the parser.
#[test]
fn documented_models_use_the_current_keys_and_check() {
    let mut docs: Vec<_> = std::fs::read_dir(root().join("docs"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    docs.sort();
    let mut models = BTreeMap::new();
    for path in &docs {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let doc = std::fs::read_to_string(path).unwrap();
        for (k, block) in doc.split("```toml\n").skip(1).enumerate() {
            let text = block.split("```").next().unwrap();
            if let Err(e) = check_renamed(&name, text) {
                panic!("{name}, toml block {k}: {e}\n{text}");
            }
            if !text.contains("[model]") {
                continue;
            }
            *models.entry(name.clone()).or_insert(0) += 1;
            let (dir, model) = write_model("phlex-vocabulary-doc", &format!("{k}"), text);
            let o = phlex().arg("check").arg(&model).output().unwrap();
            assert!(
                o.status.success(),
                "{name}, documented model {k}:\n{text}\n{}",
                String::from_utf8_lossy(&o.stderr)
            );
            let _ = std::fs::remove_dir_all(dir);
        }
    }
    assert!(models["model-format-mbs.md"] >= 9, "{models:?}");
    assert!(models["model-format-ephs.md"] >= 2, "{models:?}");
}
