//! Result files: every file is written to a temporary sibling and renamed into place, so
//! an interrupted or failed run never leaves a half-written output ([`write_atomic`]);
//! [`OutputFiles`] keeps the files of a command in memory until everything is computed and
//! then writes them all, with `summary.json` last; [`default_out`] is the default output
//! directory.
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use super::svg::svg_plot;

/// Writes `bytes` to `path` atomically (temporary file in the same directory + rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    fs::create_dir_all(dir)
        .with_context(|| format!("cannot create directory {}", dir.display()))?;
    let name = path
        .file_name()
        .map(|s| s.to_string_lossy().to_string())
        .unwrap_or_default();
    let tmp: PathBuf = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    {
        let mut f =
            fs::File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        f.write_all(bytes)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        f.sync_all().ok();
    }
    fs::rename(&tmp, path).with_context(|| format!("cannot move result to {}", path.display()))?;
    Ok(())
}

/// Default output directory of a model or data file: `out/<file stem>`.
pub fn default_out(path: &Path) -> PathBuf {
    PathBuf::from("out").join(path.file_stem().map(|s| s.to_owned()).unwrap_or_default())
}

/// The summary of a run: written as `summary.json`, listing the files of the run, and
/// printed as a table.
pub trait RunReport: serde::Serialize {
    /// The list of written files (`outputs` in `summary.json`).
    fn outputs_mut(&mut self) -> &mut Vec<String>;
    /// The table printed at the end of the run.
    fn summary_table(&self) -> String;
}

/// The result files of one command, kept in memory until everything is computed and then
/// written, each atomically ([`write_atomic`]): an error while computing leaves no file.
#[derive(Debug, Clone)]
pub struct OutputFiles {
    dir: PathBuf,
    files: Vec<(String, Vec<u8>)>,
}

impl OutputFiles {
    /// No files yet, to be written into `dir`.
    pub fn new(dir: &Path) -> Self {
        Self {
            dir: dir.to_path_buf(),
            files: Vec::new(),
        }
    }

    /// The output directory.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Adds a file (`name` relative to the directory, e.g. `fields/plate_0001.vtu`).
    pub fn add(&mut self, name: impl Into<String>, bytes: Vec<u8>) {
        self.files.push((name.into(), bytes));
    }

    /// Adds the SVG plot `name` titled `title` of the `series` (label, times, values)
    /// against the time `t [s]`.
    pub fn add_time_plot(
        &mut self,
        name: &str,
        title: &str,
        series: &[(&str, &[f64], &[f64])],
    ) -> Result<()> {
        self.add(name, svg_plot(title, "t [s]", series)?.into_bytes());
        Ok(())
    }

    /// VTK snapshots `fields/<kind>_NNNN.vtu` (time, XML) and the collection `<kind>.pvd`
    /// that lists them for ParaView; returns the line that says where they are (`None`
    /// without snapshots).
    pub fn add_vtk_series(&mut self, kind: &str, snapshots: Vec<(f64, String)>) -> Option<String> {
        if snapshots.is_empty() {
            return None;
        }
        let n = snapshots.len();
        let mut entries = Vec::with_capacity(n);
        for (k, (t, xml)) in snapshots.into_iter().enumerate() {
            let name = format!("fields/{kind}_{k:04}.vtu");
            self.add(name.clone(), xml.into_bytes());
            entries.push((t, name));
        }
        let pvd = format!("{kind}.pvd");
        self.add(pvd.clone(), phlex_fem::io::vtk::pvd(&entries).into_bytes());
        Some(format!(
            "  VTK         {n} snapshots, open {} in ParaView",
            self.dir.join(pvd).display()
        ))
    }

    /// The paths of the files a summary lists: all but the VTK snapshots in `fields/`.
    pub fn listed(&self) -> Vec<String> {
        self.files
            .iter()
            .filter(|(n, _)| !n.starts_with("fields/"))
            .map(|(n, _)| self.dir.join(n).display().to_string())
            .collect()
    }

    /// [`Self::listed`] and then `summary.json`: the `outputs` of a summary.
    pub fn listed_with_summary(&self) -> Vec<String> {
        let mut listed = self.listed();
        listed.push(self.dir.join("summary.json").display().to_string());
        listed
    }

    /// Writes every file (atomically, in the order added); returns their paths.
    pub fn write(&self) -> Result<Vec<PathBuf>> {
        let mut written = Vec::with_capacity(self.files.len());
        for (name, bytes) in &self.files {
            let p = self.dir.join(name);
            write_atomic(&p, bytes)?;
            written.push(p);
        }
        Ok(written)
    }

    /// Lists the files and `summary.json` in `summary`, adds `summary.json` and writes
    /// everything (the summary last).
    pub fn write_with_summary<S: RunReport>(mut self, summary: &mut S) -> Result<()> {
        *summary.outputs_mut() = self.listed_with_summary();
        let json = serde_json::to_vec_pretty(summary)?;
        self.add("summary.json", json);
        self.write().map(|_| ())
    }

    /// The end of a run: writes the files and `summary.json` ([`Self::write_with_summary`]),
    /// then prints the summary table, the `extra` lines and where the results are.
    pub fn finish_run<S: RunReport>(self, mut summary: S, extra: &[String]) -> Result<()> {
        let dir = self.dir.clone();
        self.write_with_summary(&mut summary)?;
        print!("{}", summary.summary_table());
        for line in extra {
            println!("{line}");
        }
        println!("  results in {}", dir.display());
        Ok(())
    }
}
