//! The `signed_envelope` example: sign a transfer's canonical bytes with Ed25519, then
//! tamper with the bytes in ways that keep (or try to keep) its meaning, and compare
//! what protobuf with prost accepts with what bijoubuf accepts.
//!
//! [`run`] returns a [`Report`]; its `Display` is the example's output.

use std::collections::BTreeMap;
use std::error::Error;
use std::fmt;

use bijoubuf::{DecodeError, Message as _};
use ed25519_dalek::{SigningKey, VerifyingKey};
use prost::Message as _;

use crate::ledger::Transfer;
use crate::ledger_prost;
use crate::signed::SignedMessage;
use crate::signing::{self, VerifyError};
use crate::text::{diff, hex, hex_lines, wrap};
use crate::wire::{self, Record, WireError, protobuf};

/// The transfer every run signs: memo left empty so that "default inserted" has a
/// default to insert, two labels so that "map reordered" has an order to change.
pub fn demo_transfer() -> Transfer {
    Transfer {
        payer: "alice".into(),
        payee: "bob".into(),
        amount: 2500,
        memo: String::new(),
        labels: BTreeMap::from([
            ("invoice".into(), "2024-117".into()),
            ("project".into(), "roof".into()),
        ]),
    }
}

/// The same transfer as prost's type.
pub fn to_prost(t: &Transfer) -> ledger_prost::Transfer {
    ledger_prost::Transfer {
        payer: t.payer.clone(),
        payee: t.payee.clone(),
        amount: t.amount,
        memo: t.memo.clone(),
        labels: t.labels.clone(),
    }
}

/// A change to a message's bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Malleation {
    /// Move the `amount` record (field 3) to the front.
    FieldMoved,
    /// Write `memo = ""` (the default) as a record.
    DefaultInserted,
    /// Spell `amount` with more bytes than needed.
    OverlongInteger,
    /// Swap the two `labels` entries.
    MapReordered,
    /// Append field 15 = 1, which the schema does not declare.
    UnknownFieldAdded,
}

/// The field numbers of `Transfer` the changes touch.
const AMOUNT: u32 = 3;
const MEMO: u32 = 4;
const LABELS: u32 = 5;
const UNDECLARED: u32 = 15;

impl Malleation {
    /// Every change, in the order the report shows them.
    pub const ALL: [Malleation; 5] = [
        Malleation::FieldMoved,
        Malleation::DefaultInserted,
        Malleation::OverlongInteger,
        Malleation::MapReordered,
        Malleation::UnknownFieldAdded,
    ];

    /// A short name for the table.
    pub fn name(self) -> &'static str {
        match self {
            Malleation::FieldMoved => "field moved",
            Malleation::DefaultInserted => "default inserted",
            Malleation::OverlongInteger => "overlong integer",
            Malleation::MapReordered => "map reordered",
            Malleation::UnknownFieldAdded => "unknown field added",
        }
    }

    /// What the change does.
    pub fn description(self) -> &'static str {
        match self {
            Malleation::FieldMoved => "the `amount` record moved to the front",
            Malleation::DefaultInserted => "`memo = \"\"` written out although it is the default",
            Malleation::OverlongInteger => "`amount` spelled with one byte more than needed",
            Malleation::MapReordered => "the two `labels` entries swapped",
            Malleation::UnknownFieldAdded => "field 15 = 1 appended; the schema has no field 15",
        }
    }

    /// Why bijoubuf's result is what it is.
    pub fn why(self) -> &'static str {
        match self {
            Malleation::FieldMoved => {
                "a bijoubuf key is the distance from the previous field number (SPEC\u{a0}§4.1), so no record can come \
                 before a lower-numbered one; cut and pasted to the front, amount's key 00 means \"field 1, \
                 VARINT\", and field 1 is a string"
            }
            Malleation::DefaultInserted => {
                "a field without explicit presence that holds its default is left out (SPEC\u{a0}§5.1); written out, \
                 the decoder refuses it"
            }
            Malleation::OverlongInteger => {
                "bijou64 has no overlong spelling: each longer tier starts where the shorter one ends (SPEC\u{a0}§2.2), \
                 so 2500 padded into the 4-byte tier is 66040 + 2500 = 68540, another amount, which decodes and \
                 then fails the signature check; writing 2500 in that tier would need a negative payload"
            }
            Malleation::MapReordered => {
                "a map is one record with its entries in ascending key order (SPEC\u{a0}§6.3,\u{a0}§6.4); \"invoice\" after \
                 \"project\" is refused"
            }
            Malleation::UnknownFieldAdded => {
                "the strict decoder refuses field numbers the schema does not declare (SPEC\u{a0}§8.1); prost skips \
                 them, so its re-encoding drops them and the signature still matches"
            }
        }
    }

    /// Apply the change to protobuf bytes of a `Transfer`.
    ///
    /// # Errors
    /// A [`WireError`] if the bytes are not a protobuf message.
    pub fn apply_protobuf(self, bytes: &[u8]) -> Result<Vec<u8>, WireError> {
        let mut records = protobuf::split(bytes)?;
        match self {
            Malleation::FieldMoved => {
                if let Some(i) = records.iter().position(|r| r.number == AMOUNT) {
                    let r = records.remove(i);
                    records.insert(0, r);
                }
            }
            Malleation::DefaultInserted => {
                let at = records
                    .iter()
                    .position(|r| r.number > MEMO)
                    .unwrap_or(records.len());
                records.insert(at, protobuf::record(MEMO, 2, &[0]));
            }
            Malleation::OverlongInteger => {
                for r in records.iter_mut().filter(|r| r.number == AMOUNT) {
                    let (v, _) =
                        protobuf::read_varint(&r.bytes[r.value_at..]).ok_or(WireError {
                            at: 0,
                            what: "amount is not a varint",
                        })?;
                    *r = protobuf::record(AMOUNT, 0, &protobuf::overlong_varint(v));
                }
            }
            Malleation::MapReordered => {
                // Each map entry is its own record in protobuf: reverse their order.
                let positions: Vec<usize> = (0..records.len())
                    .filter(|&i| records[i].number == LABELS)
                    .collect();
                let entries: Vec<_> = positions
                    .iter()
                    .rev()
                    .map(|&i| records[i].clone())
                    .collect();
                for (&i, e) in positions.iter().zip(entries) {
                    records[i] = e;
                }
            }
            Malleation::UnknownFieldAdded => records.push(protobuf::record(UNDECLARED, 0, &[1])),
        }
        Ok(protobuf::join(&records))
    }

    /// Apply the change, or the closest attempt at it, to bijoubuf bytes of a
    /// `Transfer`.
    ///
    /// # Errors
    /// A [`WireError`] if the bytes cannot be split into records.
    pub fn apply_bijoubuf(self, bytes: &[u8]) -> Result<Vec<u8>, WireError> {
        let mut records = wire::split(bytes)?;
        match self {
            Malleation::FieldMoved => {
                // No order with amount first has an encoding (`wire::join` refuses it),
                // so move the record's bytes as they are, key included.
                if let Some(i) = records.iter().position(|r| r.number == AMOUNT) {
                    let r = records.remove(i);
                    records.insert(0, r);
                }
                return Ok(wire::join_verbatim(&records));
            }
            Malleation::DefaultInserted => {
                let at = records
                    .iter()
                    .position(|r| r.number > MEMO)
                    .unwrap_or(records.len());
                records.insert(at, Record::len_field(MEMO, b""));
            }
            Malleation::OverlongInteger => {
                for r in records.iter_mut().filter(|r| r.number == AMOUNT) {
                    let (v, _) = bijou64::decode(&r.value).map_err(|_| WireError {
                        at: 0,
                        what: "amount is not a bijou64",
                    })?;
                    r.value = wire::bijou64_padded(v).ok_or(WireError {
                        at: 0,
                        what: "amount has no longer tier",
                    })?;
                }
            }
            Malleation::MapReordered => {
                for r in records.iter_mut().filter(|r| r.number == LABELS) {
                    let content = r.content().ok_or(WireError {
                        at: 0,
                        what: "labels is not LEN",
                    })?;
                    let mut entries = wire::split_len_pairs(content)?;
                    entries.reverse();
                    *r = Record::len_field(LABELS, &entries.concat());
                }
            }
            Malleation::UnknownFieldAdded => {
                records.push(Record::new(UNDECLARED, wire::VARINT, vec![1]))
            }
        }
        wire::join(&records)
    }
}

/// What prost and the two protobuf signature schemes made of some protobuf bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct ProstOutcome {
    /// prost's decode of the bytes.
    pub decoded: Result<ledger_prost::Transfer, prost::DecodeError>,
    /// The signature checked over the bytes as received.
    pub verify_bytes_ok: bool,
    /// The signature checked over prost's re-encoding of the decoded value.
    pub reencode_verify_ok: bool,
}

/// A tampered envelope: what was done to it, and its bytes.
pub type Tampered = (String, Vec<u8>);

/// Tampered copies of a signed envelope, each named: every [`Malleation`] applied to the
/// body under the original signature, the signature with one bit flipped, and the
/// envelope with a byte appended. Every one must be refused by a strict verifier; the
/// cross-language tests hand them to each implementation.
pub fn tampered_envelopes(signed: &[u8]) -> Result<Vec<Tampered>, Box<dyn Error>> {
    let envelope = SignedMessage::decode(signed)?;
    let mut cases = Vec::with_capacity(Malleation::ALL.len() + 2);
    for m in Malleation::ALL {
        let tampered = SignedMessage {
            body: m.apply_bijoubuf(&envelope.body)?,
            signature: envelope.signature.clone(),
        };
        cases.push((m.name().to_string(), tampered.encode_to_vec()?));
    }
    let mut flipped = envelope;
    flipped.signature[10] ^= 1;
    cases.push(("signature bit flipped".into(), flipped.encode_to_vec()?));
    let mut trailing = signed.to_vec();
    trailing.push(0);
    cases.push(("envelope with a byte appended".into(), trailing));
    Ok(cases)
}

/// Check protobuf bytes against a signature both ways a protobuf system can.
pub fn prost_outcome(key: &VerifyingKey, bytes: &[u8], signature: &[u8]) -> ProstOutcome {
    let name = Transfer::FULL_NAME;
    let decoded = ledger_prost::Transfer::decode(bytes);
    let verify_bytes_ok =
        decoded.is_ok() && signing::verify_bytes(key, name, bytes, signature).is_ok();
    let reencode_verify_ok = decoded
        .as_ref()
        .is_ok_and(|t| signing::verify_bytes(key, name, &t.encode_to_vec(), signature).is_ok());
    ProstOutcome {
        decoded,
        verify_bytes_ok,
        reencode_verify_ok,
    }
}

/// One row of the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// The change.
    pub malleation: Malleation,
    /// The changed protobuf bytes.
    pub protobuf: Vec<u8>,
    /// What prost made of them.
    pub prost: ProstOutcome,
    /// The changed bijoubuf bytes (the body of the envelope).
    pub bijoubuf: Vec<u8>,
    /// The strict decode of the changed body on its own.
    pub body: Result<Transfer, DecodeError>,
    /// The verifier's answer for the envelope holding the changed body and the original
    /// signature.
    pub verdict: Result<Transfer, VerifyError>,
}

/// Everything the example shows.
#[derive(Debug, Clone, PartialEq)]
pub struct Report {
    /// The transfer.
    pub transfer: Transfer,
    /// Its canonical bijoubuf bytes.
    pub body: Vec<u8>,
    /// The bijoubuf signature.
    pub signature: Vec<u8>,
    /// The encoded envelope.
    pub envelope: Vec<u8>,
    /// The verifier's answer for the untouched envelope.
    pub verdict: Result<Transfer, VerifyError>,
    /// prost's encoding of the same transfer.
    pub protobuf: Vec<u8>,
    /// What prost made of the untouched protobuf bytes.
    pub prost: ProstOutcome,
    /// One row per change.
    pub rows: Vec<Row>,
}

/// Sign the demo transfer with the demo key and try every change.
///
/// # Errors
/// An encode error or a [`WireError`]; neither happens with the demo transfer.
pub fn run() -> Result<Report, Box<dyn Error>> {
    run_with(&signing::demo_key(), &demo_transfer())
}

/// [`run`] with any key and transfer. The transfer needs an amount, an empty memo and
/// at least two labels for every change to apply.
///
/// # Errors
/// See [`run`].
pub fn run_with(key: &SigningKey, transfer: &Transfer) -> Result<Report, Box<dyn Error>> {
    let public = key.verifying_key();
    let envelope = signing::sign(key, transfer)?;
    let SignedMessage { body, signature } = SignedMessage::decode(&envelope)?;
    let verdict = signing::verify::<Transfer>(&public, &envelope);

    let protobuf = to_prost(transfer).encode_to_vec();
    let pb_signature = signing::sign_bytes(key, Transfer::FULL_NAME, &protobuf);

    let mut rows = Vec::new();
    for m in Malleation::ALL {
        let pb = m.apply_protobuf(&protobuf)?;
        let bb = m.apply_bijoubuf(&body)?;
        let tampered = SignedMessage {
            body: bb.clone(),
            signature: signature.clone(),
        }
        .encode_to_vec()?;
        rows.push(Row {
            malleation: m,
            prost: prost_outcome(&public, &pb, &pb_signature),
            protobuf: pb,
            body: Transfer::decode(&bb),
            verdict: signing::verify::<Transfer>(&public, &tampered),
            bijoubuf: bb,
        });
    }
    Ok(Report {
        transfer: transfer.clone(),
        prost: prost_outcome(&public, &protobuf, &pb_signature),
        body,
        signature,
        envelope,
        verdict,
        protobuf,
        rows,
    })
}

fn field_name(number: u32) -> &'static str {
    match number {
        1 => "payer",
        2 => "payee",
        AMOUNT => "amount",
        MEMO => "memo",
        LABELS => "labels",
        _ => "?",
    }
}

fn describe_record(r: &Record) -> String {
    let name = field_name(r.number);
    match (r.number, r.content()) {
        (LABELS, Some(c)) => {
            let n = wire::split_len_pairs(c).map_or(0, |e| e.len());
            format!("{name:<7} {n} entries in one record, sorted by key")
        }
        (_, Some(c)) => format!("{name:<7} = {:?}", String::from_utf8_lossy(c)),
        (_, None) => match bijou64::decode(&r.value) {
            Ok((v, _)) => format!("{name:<7} = {v}"),
            Err(_) => name.to_owned(),
        },
    }
}

fn prost_decoded(o: &ProstOutcome, original: &ledger_prost::Transfer) -> &'static str {
    match &o.decoded {
        Ok(t) if t == original => "same value",
        Ok(_) => "other value",
        Err(_) => "refused",
    }
}

fn verdict_cell(v: &Result<Transfer, VerifyError>, tampered: bool) -> String {
    match v {
        Ok(_) if tampered => "ACCEPTS".to_owned(),
        Ok(_) => "accepts".to_owned(),
        Err(e) => format!("refuses: {}", e.code()),
    }
}

fn write_diff(f: &mut fmt::Formatter<'_>, label: &str, old: &[u8], new: &[u8]) -> fmt::Result {
    let d = diff(old, new);
    let head = format!("   {label:<9} at byte {}: ", d.at);
    let indent = " ".repeat(head.len());
    writeln!(f, "{head}{}", hex_lines(d.old, 20, &indent))?;
    writeln!(
        f,
        "{:>width$}{}",
        "-> ",
        hex_lines(d.new, 20, &indent),
        width = head.len()
    )
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let t = &self.transfer;
        writeln!(f, "Signed envelope: Ed25519 over canonical bytes")?;
        writeln!(f, "=============================================")?;
        writeln!(f)?;
        writeln!(
            f,
            "The transfer: {} pays {} {} cents, memo {:?}, labels {:?}",
            t.payer, t.payee, t.amount, t.memo, t.labels
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "Its canonical bijoubuf bytes ({} bytes), record by record:",
            self.body.len()
        )?;
        if let Ok(records) = wire::split(&self.body) {
            for r in &records {
                let bytes = hex(&[r.key.as_slice(), r.value.as_slice()].concat());
                let shown = if bytes.len() > 36 {
                    format!("{} ...", &bytes[..32])
                } else {
                    bytes
                };
                writeln!(f, "  {shown:<38} {}", describe_record(r))?;
            }
        }
        writeln!(
            f,
            "  Each record starts with a key: (number - previous number - 1) << 2 | wire type,"
        )?;
        writeln!(
            f,
            "  so 02 is \"the next field, length-delimited\" and 00 \"the next field, an integer\"."
        )?;
        writeln!(
            f,
            "  memo is empty: a field holding its default is not written at all."
        )?;
        writeln!(f)?;
        writeln!(
            f,
            "Signed input: \"{}\" + \"{}\" + 00 + those {} bytes",
            String::from_utf8_lossy(signing::DOMAIN_PREFIX),
            Transfer::FULL_NAME,
            self.body.len()
        )?;
        writeln!(f, "Signature:    {} ...", hex(&self.signature[..16]))?;
        writeln!(
            f,
            "              (a key from a fixed seed, so every run prints the same)"
        )?;
        writeln!(
            f,
            "Envelope:     SignedMessage {{ body, signature }}, {} bytes",
            self.envelope.len()
        )?;
        match &self.verdict {
            Ok(v) => {
                writeln!(
                    f,
                    "Verifier:     decodes envelope and body strictly, then checks the signature"
                )?;
                writeln!(
                    f,
                    "              over the body bytes: valid ({} pays {} {})",
                    v.payer, v.payee, v.amount
                )?;
            }
            Err(e) => writeln!(f, "Verifier:     {e}")?,
        }
        writeln!(f)?;
        writeln!(
            f,
            "Now tamper with the bytes: each change keeps the meaning (or tries to)."
        )?;
        writeln!(
            f,
            "The same transfer encoded by prost ({} bytes) is signed the same way; protobuf can check",
            self.protobuf.len()
        )?;
        writeln!(f, "a signature two ways:")?;
        writeln!(
            f,
            "  verify bytes       check the signature over the bytes received"
        )?;
        writeln!(
            f,
            "  re-encode, verify  decode, re-encode, check the signature over the re-encoding"
        )?;
        writeln!(f)?;
        let original = to_prost(t);
        writeln!(
            f,
            "{:<20} | {:<43} | bijoubuf",
            "", "protobuf read by prost"
        )?;
        writeln!(
            f,
            "{:<20} | {:<11} {:<13} {:<17} | strict decode, then verify",
            "change", "decodes to", "verify bytes", "re-encode, verify"
        )?;
        writeln!(f, "{:-<21}+{:-<45}+{:-<32}", "", "", "")?;
        // An acceptance of bytes other than the signed ones is what to look at: capitals.
        let accepts = |ok: bool, tampered: bool| match (ok, tampered) {
            (true, true) => "ACCEPTS",
            (true, false) => "accepts",
            (false, _) => "refuses",
        };
        let row = |f: &mut fmt::Formatter<'_>,
                   name: &str,
                   o: &ProstOutcome,
                   v: &Result<Transfer, VerifyError>,
                   tampered: bool| {
            writeln!(
                f,
                "{:<20} | {:<11} {:<13} {:<17} | {}",
                name,
                prost_decoded(o, &original),
                accepts(o.verify_bytes_ok, tampered),
                accepts(o.reencode_verify_ok, tampered),
                verdict_cell(v, tampered)
            )
        };
        row(f, "none (as signed)", &self.prost, &self.verdict, false)?;
        for r in &self.rows {
            row(f, r.malleation.name(), &r.prost, &r.verdict, true)?;
        }
        writeln!(f)?;
        writeln!(f, "For protobuf, each change is the same transfer, so:")?;
        writeln!(
            f,
            "  - \"verify bytes\" fails on bytes that mean what was signed: a relay that re-serializes"
        )?;
        writeln!(
            f,
            "    (another library, another field or map order) breaks the signature;"
        )?;
        writeln!(
            f,
            "  - \"re-encode, verify\" passes on bytes nobody signed: whatever stores, hashes, logs or"
        )?;
        writeln!(
            f,
            "    deduplicates the received bytes sees a message the signer never produced."
        )?;
        writeln!(
            f,
            "bijoubuf has one byte string per value: the strict decoder refuses every other spelling"
        )?;
        writeln!(
            f,
            "before the signature is checked, so verifying the bytes is verifying the value."
        )?;
        writeln!(f)?;
        writeln!(f, "In detail:")?;
        for (i, r) in self.rows.iter().enumerate() {
            writeln!(f)?;
            writeln!(
                f,
                "{}. {}: {}",
                i + 1,
                r.malleation.name(),
                r.malleation.description()
            )?;
            write_diff(f, "protobuf", &self.protobuf, &r.protobuf)?;
            let read = match &r.prost.decoded {
                Ok(d) if *d == original => "the same Transfer",
                Ok(_) => "a different Transfer",
                Err(_) => "an error",
            };
            writeln!(f, "             prost reads {read}")?;
            write_diff(f, "bijoubuf", &self.body, &r.bijoubuf)?;
            match (&r.verdict, &r.body) {
                (Err(VerifyError::BadSignature), Ok(b)) => writeln!(
                    f,
                    "             decodes as amount {}, then: {}",
                    b.amount,
                    VerifyError::BadSignature
                )?,
                (Err(e), _) => writeln!(
                    f,
                    "             {}",
                    wrap(&e.to_string(), 84, "               ")
                )?,
                (Ok(_), _) => writeln!(f, "             accepted")?,
            }
            writeln!(f, "   why: {}", wrap(r.malleation.why(), 92, "        "))?;
        }
        Ok(())
    }
}
