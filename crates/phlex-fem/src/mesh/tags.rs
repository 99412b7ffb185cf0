//! Named boundary tags, written once for the triangle, quadrilateral and tetrahedral
//! meshes: each tag is a list of indices into the mesh's boundary list (edges in 2D,
//! faces in 3D).
use crate::error::Fem2dError;
use std::collections::BTreeMap;

/// Named subsets of a mesh's boundary entities, stored as indices into its boundary list.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct BoundaryTags(BTreeMap<String, Vec<usize>>);

impl BoundaryTags {
    /// Tags (or re-tags) as `name` the boundary entities whose representative point
    /// (`points`, one per boundary entity: edge midpoint, face centroid) satisfies `pred`;
    /// returns their number, an empty selection is [`Fem2dError::EmptyTag`].
    pub(crate) fn tag_where<P>(
        &mut self,
        name: &str,
        points: impl IntoIterator<Item = P>,
        pred: impl Fn(P) -> bool,
    ) -> Result<usize, Fem2dError> {
        let sel: Vec<usize> = points
            .into_iter()
            .enumerate()
            .filter_map(|(k, p)| pred(p).then_some(k))
            .collect();
        if sel.is_empty() {
            return Err(Fem2dError::EmptyTag { tag: name.into() });
        }
        Ok(self.insert(name, sel))
    }

    /// Sets tag `name` to the boundary indices `sel`; returns their number.
    pub(crate) fn insert(&mut self, name: &str, sel: Vec<usize>) -> usize {
        let n = sel.len();
        self.0.insert(name.to_string(), sel);
        n
    }

    /// Tag names, sorted.
    pub(crate) fn names(&self) -> Vec<String> {
        self.0.keys().cloned().collect()
    }

    /// The entries of `boundary` carrying tag `name`; an unknown tag is
    /// [`Fem2dError::UnknownTag`] listing the available ones.
    pub(crate) fn select<B: Copy>(&self, name: &str, boundary: &[B]) -> Result<Vec<B>, Fem2dError> {
        match self.0.get(name) {
            Some(ids) => Ok(ids.iter().map(|&k| boundary[k]).collect()),
            None => Err(Fem2dError::UnknownTag {
                tag: name.into(),
                available: self.names().join(", "),
            }),
        }
    }

    /// Tags the four sides of the rectangle $[x_0, x_1]\times[y_0, y_1]$ by the boundary
    /// edge midpoints `mids`: `"left"` ($|x - x_0| <$ `tol[0]`), `"right"`, `"bottom"`
    /// ($|y - y_0| <$ `tol[1]`), `"top"`, in that order.
    pub(crate) fn tag_rectangle_sides(
        &mut self,
        mids: &[[f64; 2]],
        [x0, x1, y0, y1]: [f64; 4],
        [tx, ty]: [f64; 2],
    ) -> Result<(), Fem2dError> {
        let mids = || mids.iter().copied();
        self.tag_where("left", mids(), |p| (p[0] - x0).abs() < tx)?;
        self.tag_where("right", mids(), |p| (p[0] - x1).abs() < tx)?;
        self.tag_where("bottom", mids(), |p| (p[1] - y0).abs() < ty)?;
        self.tag_where("top", mids(), |p| (p[1] - y1).abs() < ty)?;
        Ok(())
    }
}
