//! The model-kind registry (issue 13, item 3): a file is read and parsed once per command,
//! its kind is found from its top-level tables, a file of no kind or of two kinds is an
//! error naming the kinds, `phlex check` prints the same report for every kind, and a
//! command that does not apply to a kind says so (exit code 2).
mod common;

use std::path::Path;

use common::{examples, fails, phlex, tmpdir, write_model};
use phlex::registry::{detect, KINDS};
use phlex::source::ModelSource;

/// One shipped example of every kind in the registry.
const ONE_PER_KIND: [(&str, &str); 13] = [
    ("beam", "beam_simply_supported.toml"),
    ("beam_control", "beam_lqg.toml"),
    ("thermoelastic_beam", "continuum/thermoelastic_beam.toml"),
    ("thermal_rod", "continuum/heat_rod.toml"),
    ("thermal_rod", "continuum/danilovskaya.toml"),
    ("plate", "plate_kirchhoff_ssss.toml"),
    ("plate_assembly", "plate_welded_rod.toml"),
    ("elasticity", "continuum/elastic_bar_2d.toml"),
    ("acoustics", "continuum/acoustic_duct.toml"),
    ("shallow_water", "continuum/shallow_water_tank.toml"),
    ("mbs", "mbs/pendulum.toml"),
    ("mbs3d", "mbs/heavy_top.toml"),
    ("ephs", "ephs/oscillator.toml"),
];

#[test]
fn every_kind_has_an_example() {
    for k in KINDS {
        assert!(
            ONE_PER_KIND.iter().any(|(name, _)| *name == k.name()),
            "no example of kind {}",
            k.name()
        );
    }
}

/// `phlex check` of one example per kind: exit 0 and the uniform report (kind, model,
/// states, ports, structure), with the kind's registry name.
#[test]
fn check_prints_the_same_report_for_every_kind() {
    for (kind, file) in ONE_PER_KIND {
        let o = phlex().arg("check").arg(examples(file)).output().unwrap();
        let out = String::from_utf8_lossy(&o.stdout);
        assert!(
            o.status.success(),
            "{file}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        assert!(out.contains(": ok\n"), "{file}: {out}");
        let kind_row = out
            .lines()
            .find(|l| l.trim_start().starts_with("kind "))
            .unwrap_or("");
        assert!(
            kind_row.split_whitespace().nth(1) == Some(kind),
            "{file}: kind row '{kind_row}', expected {kind}"
        );
        for row in ["model ", "states ", "ports ", "structure "] {
            assert!(
                out.lines().any(|l| l.trim_start().starts_with(row)),
                "{file}: no row '{row}' in:\n{out}"
            );
        }
    }
}

/// Every command reads the file once and makes one typed parse; the kind is detected from
/// the one parsed top-level table.
#[test]
fn each_command_parses_the_file_once() {
    for (kind, file) in ONE_PER_KIND {
        let src = ModelSource::read(&examples(file)).unwrap();
        assert_eq!(detect(&src).unwrap().name(), kind, "{file}");
        phlex::app::check_source(&src).unwrap();
        assert_eq!(src.typed_parses(), 1, "phlex check {file}");
    }
    for file in [
        "beam_simply_supported.toml",
        "continuum/heat_rod.toml",
        "plate_welded_rod.toml",
        "mbs/pendulum.toml",
        "mbs/heavy_top.toml",
    ] {
        let src = ModelSource::read(&examples(file)).unwrap();
        phlex::app::modes_source(&src, Some(2), None).unwrap();
        assert_eq!(src.typed_parses(), 1, "phlex modes {file}");
    }
    for file in ["beam_simply_supported.toml", "ephs/oscillator.toml"] {
        let src = ModelSource::read(&examples(file)).unwrap();
        let out = tmpdir("phlex-registry", file.replace('/', "_").as_str());
        phlex::app::run_source(&src, Some(&out), true).unwrap();
        assert_eq!(src.typed_parses(), 1, "phlex run {file}");
        assert!(out.join("summary.json").exists());
        let _ = std::fs::remove_dir_all(&out);
    }
    let src = ModelSource::read(&examples("mbs/four_bar_modes.toml")).unwrap();
    phlex::export::linear_of(&src, true).unwrap();
    assert_eq!(src.typed_parses(), 1, "phlex export");
}

/// A file whose top-level tables match no kind: exit 2, the tables found and what every
/// kind expects.
#[test]
fn a_file_of_no_kind_is_an_error_listing_the_kinds() {
    let (dir, model) = write_model(
        "phlex-registry",
        "nokind",
        "[model]\nname = \"x\"\n\n[membrane]\nlx = 1.0\n",
    );
    for cmd in ["check", "run", "modes", "export"] {
        let (code, err) = fails(&[cmd], &model);
        assert_eq!(code, 2, "{cmd}: {err}");
        assert!(
            err.contains("no model kind matches the top-level tables ([membrane], [model])"),
            "{err}"
        );
        for k in KINDS {
            assert!(
                err.contains(&format!("{}: {}", k.name(), k.expects())),
                "{}: {err}",
                k.name()
            );
        }
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// A file whose tables match two kinds: exit 2, naming both.
#[test]
fn a_file_of_two_kinds_is_an_error_naming_both() {
    let beam = std::fs::read_to_string(examples("beam_simply_supported.toml")).unwrap();
    let text = format!("{beam}\n[shallow_water]\ndensity = 1000.0\nh_des = 0.1\n");
    let (dir, model) = write_model("phlex-registry", "twokinds", &text);
    let (code, err) = fails(&["check"], &model);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("match several model kinds"), "{err}");
    assert!(err.contains("beam ([beam] without [control])"), "{err}");
    assert!(err.contains("shallow_water ([shallow_water])"), "{err}");
    let src = ModelSource::read(&model).unwrap();
    assert!(detect(&src).is_err());
    let _ = std::fs::remove_dir_all(dir);
}

/// Commands that do not apply to a kind: exit 2, naming the kind and what to use instead.
#[test]
fn commands_a_kind_lacks_name_the_kind_and_the_alternative() {
    let (code, err) = fails(&["modes"], &examples("ephs/oscillator.toml"));
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("`phlex modes` is not applicable to ephs models"),
        "{err}"
    );
    assert!(err.contains("use `phlex run`"), "{err}");
    let out = tmpdir("phlex-registry", "export-plate");
    let o = phlex()
        .args(["export", "--out"])
        .arg(&out)
        .arg(examples("plate_kirchhoff_ssss.toml"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains("`phlex export` is not applicable to plate models"),
        "{err}"
    );
    assert!(err.contains("use `phlex modes`"), "{err}");
    assert!(!Path::new(&out).exists());
}
