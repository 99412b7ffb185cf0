//! The command line of the study examples (`examples/convergence_eb.rs`,
//! `examples/kirchhoff_convergence.rs`): `[--full] [--out DIR]`.
use std::path::PathBuf;

use anyhow::{bail, Context, Result};

/// The options of a study example from `args` (without the program name): `--full` (the
/// whole thesis table instead of the fast subset) and `--out DIR` (default
/// `default_out`); another argument is an error that shows the usage.
pub fn study_args(
    args: impl IntoIterator<Item = String>,
    default_out: &str,
) -> Result<(bool, PathBuf)> {
    let (mut full, mut out) = (false, PathBuf::from(default_out));
    let mut args = args.into_iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "--full" => full = true,
            "--out" => out = PathBuf::from(args.next().context("--out needs a directory")?),
            other => bail!("unknown argument '{other}' (usage: [--full] [--out DIR])"),
        }
    }
    Ok((full, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_and_out_or_the_usage() {
        let args = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(
            study_args(args(&[]), "out/x").unwrap(),
            (false, "out/x".into())
        );
        assert_eq!(
            study_args(args(&["--out", "d", "--full"]), "out/x").unwrap(),
            (true, "d".into())
        );
        let e = study_args(args(&["--fast"]), "out/x").unwrap_err();
        assert!(e.to_string().contains("usage: [--full] [--out DIR]"), "{e}");
        assert!(study_args(args(&["--out"]), "out/x").is_err());
    }
}
