//! Benchmarks of the beam pipeline (written by the benchmark task).
fn main() {}
