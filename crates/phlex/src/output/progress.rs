//! Progress of a time integration: a bar on a terminal, a line every 10 % in a log.
use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// Progress on a terminal (a bar) or in a log (a line every 10 %).
pub struct Progress {
    bar: Option<ProgressBar>,
    plain: bool,
    t0: f64,
    t_end: f64,
    next_decile: usize,
}

impl Progress {
    /// A reporter for `[t0, t_end]`; silent if `quiet`.
    pub fn new(t0: f64, t_end: f64, quiet: bool) -> Self {
        let tty = std::io::stderr().is_terminal();
        let bar = (!quiet && tty).then(|| {
            let b = ProgressBar::new(1000);
            b.set_style(
                ProgressStyle::with_template(
                    "{spinner} [{elapsed_precise}] {bar:40} {percent:>3}% {msg} (eta {eta})",
                )
                .expect("valid template"),
            );
            b
        });
        Self {
            bar,
            plain: !quiet && !tty,
            t0,
            t_end,
            next_decile: 1,
        }
    }
    /// Reports that the integration reached `t`.
    pub fn update(&mut self, t: f64) {
        let frac = ((t - self.t0) / (self.t_end - self.t0)).clamp(0.0, 1.0);
        if let Some(b) = &self.bar {
            b.set_position((frac * 1000.0) as u64);
            b.set_message(format!("t = {t:.4e} s"));
        } else if self.plain {
            while self.next_decile <= 10 && frac + 1e-12 >= self.next_decile as f64 / 10.0 {
                eprintln!("progress: {:>3}%  t = {t:.6e} s", self.next_decile * 10);
                self.next_decile += 1;
            }
        }
    }
    /// Ends the bar.
    pub fn finish(&self) {
        if let Some(b) = &self.bar {
            b.finish_and_clear();
        }
    }
}
