//! The canonicality checks shared by the property tests and the fuzz targets.

use crate::arbitrary::{Entropy, message};
use crate::vector::{Config, Outcome};
use crate::{dynamic, generated, hex};

/// Decode `bytes` as `type_name` with generated code and with `bijoubuf-reflect`:
/// whichever accepts must re-encode exactly `bytes` (and generated code's `encoded_len`
/// must match), and both must give the same verdict — accepted alike, or refused with
/// the same code, offset and path.
///
/// # Errors
/// A description of the first property that does not hold.
pub fn check_bytes(type_name: &str, bytes: &[u8], cfg: &Config) -> Result<(), String> {
    let g = generated::decode(type_name, bytes, cfg).ok_or("no generated type")?;
    let r = dynamic::decode(type_name, bytes, cfg).ok_or("no reflect type")?;
    for (name, o) in [("generated", &g), ("reflect", &r)] {
        match o {
            Outcome::Accepted { reencoded, .. } if reencoded != bytes => {
                return Err(format!(
                    "{name} accepted {type_name} {} and re-encoded it as {}",
                    hex::format(bytes),
                    hex::format(reencoded)
                ));
            }
            Outcome::EncodeFailed(e) => {
                return Err(format!(
                    "{name} accepted {type_name} {} but cannot encode it: {e}",
                    hex::format(bytes)
                ));
            }
            _ => {}
        }
    }
    // One configuration, one verdict (SPEC §8.2 includes the preserving set).
    if g != r {
        return Err(format!(
            "engines disagree on {type_name} {}: generated {g:?}, reflect {r:?}",
            hex::format(bytes)
        ));
    }
    Ok(())
}

/// If the strict decoder accepts `bytes` as `type_name`, its proto3 JSON either is
/// refused with an error or reads back as a message that encodes to exactly `bytes`:
/// nothing prints as something else.
///
/// # Errors
/// A description of the value that printed but did not come back.
pub fn check_json(type_name: &str, bytes: &[u8]) -> Result<(), String> {
    let desc = dynamic::message(type_name).ok_or("no reflect type")?;
    let Ok(m) = bijoubuf_reflect::DynamicMessage::decode(&desc, bytes) else {
        return Ok(());
    };
    // A refusal is an answer: the value has no proto3 JSON form.
    let Ok(text) = bijoubuf_reflect::json::to_string(&m) else {
        return Ok(());
    };
    let back = bijoubuf_reflect::json::from_str(&desc, &text).map_err(|e| {
        format!(
            "{type_name} {} printed as {text} which does not read back: {e}",
            hex::format(bytes)
        )
    })?;
    match back.encode() {
        Ok(again) if again == bytes => Ok(()),
        Ok(again) => Err(format!(
            "{type_name} {} printed as {text} which reads back as {}",
            hex::format(bytes),
            hex::format(&again)
        )),
        Err(e) => Err(format!(
            "{type_name} {} printed as {text} which reads back but does not encode: {e}",
            hex::format(bytes)
        )),
    }
}

/// Read `text` as proto3 JSON of `type_name`: it is refused (by the JSON reader or the
/// encoder) with an error, or it encodes to bytes that both engines accept and
/// re-encode unchanged, and whose proto3 JSON reads back to the same bytes
/// ([`check_json`]). JSON is untrusted input too: no panic, no silent change. Returns
/// the bytes when the text was accepted.
///
/// # Errors
/// A description of the first property that does not hold.
pub fn check_json_text(type_name: &str, text: &str) -> Result<Option<Vec<u8>>, String> {
    let desc = dynamic::message(type_name).ok_or("no reflect type")?;
    let Ok(m) = bijoubuf_reflect::json::from_str(&desc, text) else {
        return Ok(None);
    };
    // The encoder may refuse what the JSON reader built (a depth past the limit): that is
    // an answer too.
    let Ok(bytes) = m.encode() else {
        return Ok(None);
    };
    let cfg = Config::default();
    let engines = [
        ("generated", generated::decode(type_name, &bytes, &cfg)),
        ("reflect", dynamic::decode(type_name, &bytes, &cfg)),
    ];
    for (name, o) in engines {
        match o.ok_or("no such type")? {
            Outcome::Accepted { reencoded, .. } if reencoded == bytes => {}
            other => {
                return Err(format!(
                    "{type_name} JSON {text} encoded as {} which {name} gives {other:?}",
                    hex::format(&bytes)
                ));
            }
        }
    }
    check_json(type_name, &bytes).map_err(|e| format!("from JSON {text}: {e}"))?;
    Ok(Some(bytes))
}

/// Build a value of `type_name` from `entropy`, encode it, and check that both engines
/// decode the bytes back to it: reflect by value (unless a NaN makes values incomparable)
/// and by re-encoding, generated code by re-encoding and `encoded_len`. Returns the
/// encoding.
///
/// # Errors
/// A description of the first property that does not hold.
pub fn check_value(type_name: &str, entropy: &[u8]) -> Result<Vec<u8>, String> {
    let desc = dynamic::message(type_name).ok_or("no reflect type")?;
    let v = message(&desc, &mut Entropy::new(entropy), 3);
    let bytes = v
        .encode()
        .map_err(|e| format!("{type_name}: encode {v:?}: {e}"))?;
    let back = bijoubuf_reflect::DynamicMessage::decode(&desc, &bytes).map_err(|e| {
        format!(
            "{type_name}: own encoding {} refused: {e}",
            hex::format(&bytes)
        )
    })?;
    if !has_nan(&v) && back != v {
        return Err(format!("{type_name}: decode(encode(v)) != v for {v:?}"));
    }
    let again = back.encode().map_err(|e| e.to_string())?;
    if again != bytes {
        return Err(format!(
            "{type_name}: re-encoding differs for {}",
            hex::format(&bytes)
        ));
    }
    match generated::decode(type_name, &bytes, &Config::default()).ok_or("no generated type")? {
        Outcome::Accepted { reencoded, .. } if reencoded == bytes => Ok(bytes),
        other => Err(format!(
            "{type_name}: generated code on {}: {other:?}",
            hex::format(&bytes)
        )),
    }
}

fn has_nan(m: &bijoubuf_reflect::DynamicMessage) -> bool {
    fn value(v: &bijoubuf_reflect::Value) -> bool {
        use bijoubuf_reflect::Value as V;
        match v {
            V::F32(f) => f.is_nan(),
            V::F64(f) => f.is_nan(),
            V::Message(m) => has_nan(m),
            V::List(l) => l.iter().any(value),
            V::Scalars(bijoubuf_reflect::ScalarList::F32(l)) => l.iter().any(|f| f.is_nan()),
            V::Scalars(bijoubuf_reflect::ScalarList::F64(l)) => l.iter().any(|f| f.is_nan()),
            V::Map(m) => m.iter().any(|(_, v)| value(v)),
            _ => false,
        }
    }
    m.fields().any(|(_, v)| value(v))
}
