//! The testee protocol: how the runner drives an implementation in any language.
//!
//! The runner starts the testee as a child process and writes requests to its stdin;
//! the testee answers each request, in order, on stdout. Every request and response is a
//! **frame**: a 4-byte big-endian length `N`, then `N` bytes of UTF-8 JSON (one object).
//! The testee exits when stdin ends. See `conformance/README.md` for the full list of
//! fields.

use std::io::{self, Read, Write};

use serde::{Deserialize, Serialize};

use crate::vector::{Config, Outcome, Refusal};

/// A request to the testee.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Request {
    /// Decode `input` (hex) as `type` with `decoder`; answer with the re-encoding.
    Decode {
        /// Full message name.
        #[serde(rename = "type")]
        type_name: String,
        /// Input bytes as hex.
        input: String,
        /// Decoder configuration.
        #[serde(default)]
        decoder: Config,
    },
    /// Encode the proto3 JSON `json` as `type` under `decoder`'s depth and size limits
    /// (SPEC §9: an encoder's limits are the decoder's).
    Encode {
        /// Full message name.
        #[serde(rename = "type")]
        type_name: String,
        /// The value as proto3 JSON text.
        json: String,
        /// Only `depth-limit` and `size-limit` matter to an encoder.
        #[serde(default)]
        decoder: Config,
    },
}

/// The testee's answer to one request.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "kebab-case")]
pub enum Response {
    /// Decoded; `output` (hex) is the re-encoding of the value (for a stream, of every
    /// message, framed), `unknown` the number of unknown fields kept.
    Accepted {
        /// Re-encoded bytes as hex.
        output: String,
        /// Unknown fields kept.
        #[serde(default)]
        unknown: usize,
    },
    /// Refused with this error (SPEC §11).
    Refused {
        /// Error code.
        code: String,
        /// Byte offset.
        offset: usize,
        /// Field path.
        path: String,
    },
    /// Encoded; `output` is the bytes as hex.
    Encoded {
        /// Encoded bytes as hex.
        output: String,
    },
    /// The testee does not implement this request (e.g. an unknown type, or JSON).
    Unsupported {
        /// Why.
        #[serde(default)]
        message: String,
    },
    /// Anything else that went wrong (an encoder refusing a decoded value, bad JSON).
    Failed {
        /// What.
        message: String,
    },
}

impl Response {
    /// The response that reports a decode outcome.
    pub fn from_outcome(o: Outcome) -> Self {
        match o {
            Outcome::Accepted { reencoded, unknown } => Response::Accepted {
                output: crate::hex::format_runs(&reencoded),
                unknown,
            },
            Outcome::Refused(Refusal { code, offset, path }) => {
                Response::Refused { code, offset, path }
            }
            Outcome::EncodeFailed(message) => Response::Failed { message },
        }
    }

    /// The decode outcome this response reports, if it reports one.
    pub fn into_outcome(self) -> Result<Outcome, String> {
        match self {
            Response::Accepted { output, unknown } => Ok(Outcome::Accepted {
                reencoded: crate::hex::parse(&output).map_err(|e| e.to_string())?,
                unknown,
            }),
            Response::Refused { code, offset, path } => {
                Ok(Outcome::Refused(Refusal { code, offset, path }))
            }
            Response::Failed { message } => Ok(Outcome::EncodeFailed(message)),
            other => Err(format!("not a decode answer: {other:?}")),
        }
    }
}

/// Write one frame holding `value` as JSON.
///
/// # Errors
/// I/O errors, or a value longer than `u32::MAX` bytes of JSON.
pub fn write_frame<W: Write, T: Serialize>(w: &mut W, value: &T) -> io::Result<()> {
    let body = serde_json::to_vec(value).map_err(io::Error::other)?;
    let n = u32::try_from(body.len()).map_err(io::Error::other)?;
    w.write_all(&n.to_be_bytes())?;
    w.write_all(&body)?;
    w.flush()
}

/// Read one frame and parse its JSON; `Ok(None)` at a clean end of input.
///
/// # Errors
/// I/O errors, a partial frame, or JSON that is not a `T`.
pub fn read_frame<R: Read, T: for<'de> Deserialize<'de>>(r: &mut R) -> io::Result<Option<T>> {
    let mut len = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        let n = r.read(&mut len[got..])?;
        if n == 0 {
            return if got == 0 {
                Ok(None)
            } else {
                Err(io::ErrorKind::UnexpectedEof.into())
            };
        }
        got += n;
    }
    let n = u32::from_be_bytes(len) as usize;
    let mut body = Vec::new();
    r.take(n as u64).read_to_end(&mut body)?;
    if body.len() != n {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    serde_json::from_slice(&body)
        .map(Some)
        .map_err(io::Error::other)
}

/// Answer `req` with engine `generated` (true) or `reflect` (false): the reference
/// testee's logic, also used by the runner in-process.
pub fn answer(req: &Request, generated: bool) -> Response {
    match req {
        Request::Decode {
            type_name,
            input,
            decoder,
        } => {
            let bytes = match crate::hex::parse(input) {
                Ok(b) => b,
                Err(e) => {
                    return Response::Failed {
                        message: e.to_string(),
                    };
                }
            };
            let out = if generated {
                crate::generated::decode(type_name, &bytes, decoder)
            } else {
                crate::dynamic::decode(type_name, &bytes, decoder)
            };
            match out {
                Some(o) => Response::from_outcome(o),
                None => Response::Unsupported {
                    message: format!("no message type {type_name}"),
                },
            }
        }
        Request::Encode {
            type_name,
            json,
            decoder,
        } => {
            let out = if generated {
                // Generated types have no JSON mapping: the value reaches them as the
                // bytes reflect writes for it, which they decode and encode again under
                // the request's limits. A value with no encoding at all (an unset
                // required field, which generated types cannot hold) is answered with
                // reflect's refusal of it.
                crate::dynamic::value_bytes(type_name, json).and_then(|b| {
                    crate::generated::encode(type_name, &b, decoder).unwrap_or_else(|| {
                        Err(crate::dynamic::EncodeFailure::Input(format!(
                            "no generated type {type_name}"
                        )))
                    })
                })
            } else {
                crate::dynamic::encode_json_with(type_name, json, decoder)
            };
            match out {
                Ok(b) => Response::Encoded {
                    output: crate::hex::format_runs(&b),
                },
                Err(crate::dynamic::EncodeFailure::Refused { code, message }) => {
                    Response::Refused {
                        code,
                        offset: 0,
                        path: message,
                    }
                }
                Err(crate::dynamic::EncodeFailure::Input(message)) => Response::Failed { message },
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_partial_frames_fail() {
        let req = Request::Decode {
            type_name: "conformance.Scalars".into(),
            input: "18 02".into(),
            decoder: Config::default(),
        };
        let mut buf = Vec::new();
        write_frame(&mut buf, &req).unwrap();
        let n = u32::from_be_bytes(buf[..4].try_into().unwrap()) as usize;
        assert_eq!(n, buf.len() - 4);
        let mut r = &buf[..];
        assert_eq!(read_frame::<_, Request>(&mut r).unwrap(), Some(req));
        assert_eq!(read_frame::<_, Request>(&mut r).unwrap(), None);
        let mut cut = &buf[..buf.len() - 1];
        assert!(read_frame::<_, Request>(&mut cut).is_err());
        let mut two = &buf[..2];
        assert!(read_frame::<_, Request>(&mut two).is_err());
    }

    #[test]
    fn the_reference_testee_answers_with_spec_errors() {
        let req: Request = serde_json::from_str(
            r#"{"op": "decode", "type": "conformance.Scalars", "input": "18 02"}"#,
        )
        .unwrap();
        let want = Response::Refused {
            code: "invalid-bool".into(),
            offset: 1,
            path: "Scalars.flag".into(),
        };
        assert_eq!(answer(&req, true), want);
        assert_eq!(answer(&req, false), want);
        let enc: Request = serde_json::from_str(
            r#"{"op": "encode", "type": "conformance.Scalars", "json": "{\"flag\": true}"}"#,
        )
        .unwrap();
        assert_eq!(
            answer(&enc, false),
            Response::Encoded {
                output: "18 01".into()
            }
        );
        assert_eq!(
            answer(&enc, true),
            Response::Encoded {
                output: "18 01".into()
            }
        );
        // Both engines refuse an encoding longer than the size limit, and a value deeper
        // than the depth limit, with the same code.
        for (json, cfg, code) in [
            (
                r#"{"flag": true}"#,
                r#"{"size-limit": 1}"#,
                "size-limit-exceeded",
            ),
            (
                r#"{"child": {"child": {}}}"#,
                r#"{"depth-limit": 2}"#,
                "depth-limit-exceeded",
            ),
            (
                r#"{"child": {}}"#,
                r#"{"depth-limit": 0}"#,
                "depth-limit-exceeded",
            ),
        ] {
            let ty = if json.contains("child") {
                "conformance.Node"
            } else {
                "conformance.Scalars"
            };
            let req: Request = serde_json::from_str(&format!(
                r#"{{"op": "encode", "type": "{ty}", "json": {}, "decoder": {cfg}}}"#,
                serde_json::to_string(json).unwrap()
            ))
            .unwrap();
            for generated in [true, false] {
                match answer(&req, generated) {
                    Response::Refused { code: got, .. } => assert_eq!(got, code, "{json} {cfg}"),
                    other => panic!("{json} {cfg} generated={generated}: {other:?}"),
                }
            }
        }
    }
}
