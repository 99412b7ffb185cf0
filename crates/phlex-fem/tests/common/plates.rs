//! Plate fixtures.
use phlex_fem::models::plate::MindlinParams;

/// Thesis 004 App. C / summary §5.2 plate data: $E = 10^{12}$ Pa, $\nu = 0.3$,
/// $\rho = 2600$ kg/m³, $h = 0.1$ m, $K_{sh} = 5/6$.
pub fn thesis_mindlin() -> MindlinParams {
    MindlinParams {
        E: 1e12,
        nu: 0.3,
        rho: 2600.0,
        h: 0.1,
        k_sh: 5.0 / 6.0,
    }
}
