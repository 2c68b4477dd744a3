//! A signed-deposit service over gRPC (`schemas/examples/deposit.proto`).
//!
//! The client encodes a [`Deposit`] canonically, signs
//! `"bijoubuf-sig-v1:" + "examples.deposit.v1.Deposit" + 0x00 + body` with Ed25519 (the
//! scheme of [`crate::signing`]: the full type name is the domain separation), and sends
//! body and signature in a `SignedMessage`. The server, [`Bank`]:
//!
//! 1. receives the envelope through the strict codec (a non-canonical envelope never
//!    reaches the handler: `InvalidArgument` with the code, offset and path);
//! 2. decodes the body strictly: a body that is not the canonical spelling of a deposit is
//!    refused the same way, naming the rule (`default-value-present`, …);
//! 3. verifies the signature over the very bytes it decoded — one value has one byte
//!    string, so "the signed bytes" and "the deposit" cannot disagree;
//! 4. checks what only the application knows: a non-zero amount, a nonce not used before.
//!
//! Each refusal names its rule first in the status message (`bad-signature: …`,
//! `replayed-nonce: …`), so a client can tell them apart.
//!
//! # The zero-integration path
//!
//! A service that must stay on an ordinary protobuf RPC (prost, grpc-go, Connect) can
//! carry the canonical bytes in a `bytes` field instead, as Cosmos SDK's `TxRaw` does
//! (`body_bytes`, `auth_info_bytes`, `signatures`): the protobuf envelope is whatever
//! the stack decodes, and the receiver runs the strict bijoubuf decode and the signature
//! check on the inner bytes itself — [`verify_deposit`] is exactly that step, and
//! [`Bank::credit`] runs it whatever transport brought the bytes. Nothing about the RPC
//! then has to change; what is lost is only the codec's refusal of a malformed envelope.

use std::collections::BTreeMap;
use std::sync::Mutex;

use bijoubuf::Message;
use ed25519_dalek::{SigningKey, VerifyingKey};
use tonic::{Request, Response, Status};

use crate::deposit::deposits_server::{Deposits, DepositsServer};
use crate::deposit::{Deposit, HistoryRequest, Receipt};
use crate::signed::SignedMessage;
use crate::signing::{self, VerifyError};

/// The most receipts one account keeps (and `History` streams): a bound on memory.
pub const MAX_RECEIPTS: usize = 1000;

/// One account: its balance, the nonces used, its receipts.
#[derive(Debug, Default)]
struct Account {
    balance: u64,
    receipts: Vec<Receipt>,
}

/// The server: accounts in memory, deposits accepted when signed by `key`.
#[derive(Debug)]
pub struct Bank {
    key: VerifyingKey,
    accounts: Mutex<BTreeMap<String, Account>>,
}

impl Bank {
    /// A bank accepting deposits signed by the holder of `key`.
    pub fn new(key: VerifyingKey) -> Self {
        Bank {
            key,
            accounts: Mutex::new(BTreeMap::new()),
        }
    }

    /// Verify and credit one signed deposit (body and signature as received).
    ///
    /// # Errors
    /// The status the RPC answers with; its message starts with the rule's name.
    pub fn credit(&self, body: &[u8], signature: &[u8]) -> Result<Receipt, Status> {
        let d = verify_deposit(&self.key, body, signature)?;
        if d.amount == 0 {
            return Err(Status::invalid_argument(
                "zero-amount: a deposit of 0 is not a deposit",
            ));
        }
        let mut accounts = self
            .accounts
            .lock()
            .map_err(|_| Status::internal("poisoned"))?;
        let account = accounts.entry(d.account.clone()).or_default();
        if account.receipts.iter().any(|r| r.nonce == d.nonce) {
            return Err(Status::already_exists(format!(
                "replayed-nonce: nonce {} was already used for account {}",
                d.nonce, d.account
            )));
        }
        if account.receipts.len() == MAX_RECEIPTS {
            return Err(Status::resource_exhausted(format!(
                "too-many-deposits: account {} holds {MAX_RECEIPTS} receipts",
                d.account
            )));
        }
        let balance = account
            .balance
            .checked_add(d.amount)
            .ok_or_else(|| Status::out_of_range("balance-overflow: the balance would pass 2^64"))?;
        account.balance = balance;
        let receipt = Receipt {
            account: d.account,
            nonce: d.nonce,
            balance,
        };
        account.receipts.push(receipt.clone());
        Ok(receipt)
    }
}

/// The strict decode and the signature check, in that order: a [`Deposit`] out of
/// `body` when `signature` is `key`'s over exactly these canonical bytes.
///
/// # Errors
/// `InvalidArgument` carrying the decoder's code, offset and path for a body that is not
/// a canonical deposit; `Unauthenticated` (`bad-signature: …`) for a signature that does
/// not match.
pub fn verify_deposit(
    key: &VerifyingKey,
    body: &[u8],
    signature: &[u8],
) -> Result<Deposit, Status> {
    let d = Deposit::decode(body).map_err(|e| bijoubuf_tonic::decode_status(&e))?;
    signing::verify_bytes(key, Deposit::FULL_NAME, body, signature).map_err(|e| match e {
        VerifyError::BadSignature => Status::unauthenticated(format!(
            "bad-signature: the signature does not match the canonical bytes of {}",
            Deposit::FULL_NAME
        )),
        other => Status::invalid_argument(other.to_string()),
    })?;
    Ok(d)
}

#[tonic::async_trait]
impl Deposits for Bank {
    async fn deposit(&self, request: Request<SignedMessage>) -> Result<Response<Receipt>, Status> {
        let env = request.into_inner();
        self.credit(&env.body, &env.signature).map(Response::new)
    }

    type HistoryStream = tokio_stream::Iter<std::vec::IntoIter<Result<Receipt, Status>>>;

    async fn history(
        &self,
        request: Request<HistoryRequest>,
    ) -> Result<Response<Self::HistoryStream>, Status> {
        let account = request.into_inner().account;
        let accounts = self
            .accounts
            .lock()
            .map_err(|_| Status::internal("poisoned"))?;
        let receipts: Vec<_> = accounts
            .get(&account)
            .map(|a| a.receipts.iter().cloned().map(Ok).collect())
            .unwrap_or_default();
        Ok(Response::new(tokio_stream::iter(receipts)))
    }
}

/// The signed envelope of `deposit` as the client sends it.
///
/// # Errors
/// The deposit cannot be encoded (it always can: no limits are exceeded).
pub fn sign_deposit(
    key: &SigningKey,
    deposit: &Deposit,
) -> Result<SignedMessage, bijoubuf::EncodeError> {
    let body = deposit.encode_to_vec()?;
    let signature = signing::sign_bytes(key, Deposit::FULL_NAME, &body).to_vec();
    Ok(SignedMessage { body, signature })
}

/// [`crate::rpc::serve`] a [`Bank`] trusting `key`.
///
/// # Errors
/// The listener cannot be bound.
pub async fn serve(key: VerifyingKey) -> std::io::Result<crate::rpc::Running> {
    crate::rpc::serve(DepositsServer::new(Bank::new(key))).await
}

/// The example: a server on loopback, a client making one good deposit and three
/// tampered ones; returns what happened, one line each.
///
/// # Errors
/// The server cannot start or the client cannot connect.
pub async fn run() -> Result<String, Box<dyn std::error::Error>> {
    use crate::deposit::deposits_client::DepositsClient;
    use std::fmt::Write as _;

    let key = signing::demo_key();
    let server = serve(key.verifying_key()).await?;
    let mut client = DepositsClient::connect(format!("http://{}", server.addr)).await?;
    let mut out = String::new();
    let deposit = Deposit {
        account: "alice".into(),
        amount: 2500,
        nonce: 1,
    };
    let signed = sign_deposit(&key, &deposit)?;
    let r = client.deposit(signed.clone()).await?.into_inner();
    writeln!(out, "accepted: {} now holds {}", r.account, r.balance)?;

    // The amount changed after signing: the bytes no longer match the signature.
    let mut tampered = signed.clone();
    let more = Deposit {
        amount: 250_000,
        nonce: 2,
        ..deposit.clone()
    };
    tampered.body = more.encode_to_vec()?;
    let e = client.deposit(tampered).await.unwrap_err();
    writeln!(out, "tampered amount: {:?} {}", e.code(), e.message())?;

    // The same deposit spelled another way (the amount's record repeated as its default
    // would be in protobuf): the strict decode refuses it before any signature check.
    let mut respelled = signed.clone();
    respelled.body = vec![0x02, 0x00];
    let e = client.deposit(respelled).await.unwrap_err();
    writeln!(out, "respelled body: {:?} {}", e.code(), e.message())?;

    let e = client.deposit(signed).await.unwrap_err();
    writeln!(out, "replayed: {:?} {}", e.code(), e.message())?;
    Ok(out)
}
