//! Plate fixtures.
use phlex_fem::models::plate::MindlinParams;

/// Thesis 004 App. C / summary §5.2 plate data ([`MindlinParams::thesis_app_c`]).
pub fn thesis_mindlin() -> MindlinParams {
    MindlinParams::thesis_app_c()
}
