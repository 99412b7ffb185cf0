//! Key groups shared by several model-file tables ([`KeyGroup`], [`WithKeys`]): one TOML
//! table read by two parsers at once, a hand-written one for the keys many kinds share
//! (the tables every continuum file has, [`crate::continuum::FieldTables`]; the 2D mesh keys,
//! [`crate::continuum::MeshSpec`]) and the kind's own derived one for the rest.
//!
//! `#[serde(flatten)]` would express this, but it buffers the values (losing the byte
//! spans of [`toml::Spanned`], so errors could no longer name the line) and disables
//! `deny_unknown_fields`. [`WithKeys`] instead hands the kind's derived parser a view of
//! the table without the group's keys, and reads each group key straight from the TOML
//! parser: every value keeps its span, and a key of neither part is an error at its own
//! line, as with a plain derived struct.
use std::fmt;
use std::marker::PhantomData;
use std::ops::Deref;

use serde::de::value::{MapAccessDeserializer, StrDeserializer};
use serde::de::{self, DeserializeSeed, IntoDeserializer, MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

/// A group of keys that several tables share, read by hand from the TOML parser.
pub trait KeyGroup: Default {
    /// The keys of the group.
    const KEYS: &'static [&'static str];
    /// The keys a table must have (a subset of [`Self::KEYS`]).
    const REQUIRED: &'static [&'static str] = &[];

    /// Reads the value of `key` (one of [`Self::KEYS`]) from `map` into the group.
    fn read<'de, M: MapAccess<'de>>(&mut self, key: &str, map: &mut M) -> Result<(), M::Error>;
}

/// A table made of the keys of the group `G` and the keys of the kind's own part `S` (a
/// derived struct, usually `deny_unknown_fields`). It dereferences to the own part.
#[derive(Debug, Clone)]
pub struct WithKeys<G, S> {
    /// The shared keys.
    pub shared: G,
    /// The kind's own keys.
    pub own: S,
}

impl<G, S> Deref for WithKeys<G, S> {
    type Target = S;
    fn deref(&self) -> &S {
        &self.own
    }
}

impl<'de, G: KeyGroup, S: Deserialize<'de>> Deserialize<'de> for WithKeys<G, S> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(TableVisitor(PhantomData))
    }
}

struct TableVisitor<G, S>(PhantomData<(G, S)>);

impl<'de, G: KeyGroup, S: Deserialize<'de>> Visitor<'de> for TableVisitor<G, S> {
    type Value = WithKeys<G, S>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a table")
    }

    fn visit_map<M: MapAccess<'de>>(self, map: M) -> Result<Self::Value, M::Error> {
        let mut rest = Rest {
            map,
            group: G::default(),
            seen: Vec::new(),
        };
        let own = S::deserialize(MapAccessDeserializer::new(&mut rest))?;
        if let Some(key) = G::REQUIRED.iter().find(|k| !rest.seen.contains(k)) {
            return Err(de::Error::missing_field(key));
        }
        Ok(WithKeys {
            shared: rest.group,
            own,
        })
    }
}

/// The table as the own part sees it: the group's keys are read into `group` as they come.
struct Rest<M, G> {
    map: M,
    group: G,
    seen: Vec<&'static str>,
}

impl<'de, M: MapAccess<'de>, G: KeyGroup> MapAccess<'de> for Rest<M, G> {
    type Error = M::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, M::Error> {
        let mut seed = Some(seed);
        loop {
            let route = Route {
                keys: G::KEYS,
                seed: &mut seed,
            };
            match self.map.next_key_seed(route)? {
                None => return Ok(None),
                Some(Routed::Own(key)) => return Ok(Some(key)),
                Some(Routed::Group(key)) => {
                    self.group.read(key, &mut self.map)?;
                    self.seen.push(key);
                }
            }
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, M::Error> {
        self.map.next_value_seed(seed)
    }
}

/// A key of the table: one of the group's, or the own part's (already identified by its
/// parser, inside the TOML parser's key so that its errors name the key's line).
enum Routed<K> {
    Group(&'static str),
    Own(K),
}

struct Route<'s, K> {
    keys: &'static [&'static str],
    seed: &'s mut Option<K>,
}

impl<'de, K: DeserializeSeed<'de>> DeserializeSeed<'de> for Route<'_, K> {
    type Value = Routed<K::Value>;
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_identifier(self)
    }
}

impl<'de, K: DeserializeSeed<'de>> Visitor<'de> for Route<'_, K> {
    type Value = Routed<K::Value>;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a key")
    }

    fn visit_str<E: de::Error>(self, key: &str) -> Result<Self::Value, E> {
        if let Some(k) = self.keys.iter().find(|k| **k == key) {
            return Ok(Routed::Group(k));
        }
        let seed = self
            .seed
            .take()
            .ok_or_else(|| E::custom(format!("key `{key}` read twice")))?;
        let key: StrDeserializer<E> = key.into_deserializer();
        seed.deserialize(key).map(Routed::Own)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use toml::Spanned;

    #[derive(Debug, Default)]
    struct Pair {
        a: Option<Spanned<f64>>,
        b: Option<String>,
    }

    impl KeyGroup for Pair {
        const KEYS: &'static [&'static str] = &["a", "b"];
        const REQUIRED: &'static [&'static str] = &["a"];
        fn read<'de, M: MapAccess<'de>>(&mut self, key: &str, map: &mut M) -> Result<(), M::Error> {
            match key {
                "a" => self.a = Some(map.next_value()?),
                _ => self.b = Some(map.next_value()?),
            }
            Ok(())
        }
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Own {
        c: Spanned<usize>,
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Doc {
        t: WithKeys<Pair, Own>,
    }

    #[test]
    fn both_parts_keep_their_spans_and_unknown_keys_name_their_line() {
        let text = "[t]\nc = 3\na = 1.5\nb = \"x\"\n";
        let d: Doc = toml::from_str(text).unwrap();
        let a = d.t.shared.a.as_ref().unwrap();
        assert_eq!((*a.get_ref(), &text[a.span()]), (1.5, "1.5"));
        assert_eq!(d.t.shared.b.as_deref(), Some("x"));
        assert_eq!((*d.t.c.get_ref(), &text[d.t.c.span()]), (3, "3"));
        let bad = "[t]\nc = 3\na = 1.5\nd = 1\n";
        let e = toml::from_str::<Doc>(bad).unwrap_err();
        assert!(e.message().contains("unknown field `d`"), "{e}");
        assert_eq!(&bad[e.span().unwrap()], "d");
        let e = toml::from_str::<Doc>("[t]\nc = 3\n").unwrap_err();
        assert!(e.message().contains("missing field `a`"), "{e}");
        let e = toml::from_str::<Doc>("[t]\na = 1.0\n").unwrap_err();
        assert!(e.message().contains("missing field `c`"), "{e}");
        let e = toml::from_str::<Doc>("[t]\nc = 3\na = \"no\"\n").unwrap_err();
        assert!(e.message().contains("invalid type"), "{e}");
    }
}
