//! The signed-deposit service on 127.0.0.1: what the example prints, and the history.

use std::time::Duration;

use bijoubuf_examples::deposit::deposits_client::DepositsClient;
use bijoubuf_examples::deposit::{Deposit, HistoryRequest};
use bijoubuf_examples::deposits::{serve, sign_deposit, verify_deposit};
use bijoubuf_examples::signing::demo_key;
use ed25519_dalek::SigningKey;
use tonic::Code;

fn bounded<F: std::future::Future>(f: F) -> F::Output {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        tokio::time::timeout(Duration::from_secs(20), f)
            .await
            .expect("the test finishes in time")
    })
}

#[test]
fn the_example_accepts_one_deposit_and_refuses_each_tampering_by_rule() {
    let report = bounded(bijoubuf_examples::deposits::run()).unwrap();
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(
        lines,
        [
            "accepted: alice now holds 2500",
            "tampered amount: Unauthenticated bad-signature: the signature does not match the canonical bytes of examples.deposit.v1.Deposit",
            "respelled body: InvalidArgument default-value-present: Deposit.account holds its default at byte 0",
            "replayed: AlreadyExists replayed-nonce: nonce 1 was already used for account alice",
        ]
    );
}

#[test]
fn history_streams_the_receipts_and_a_foreign_key_is_refused() {
    bounded(async {
        let key = demo_key();
        let server = serve(key.verifying_key()).await.unwrap();
        let mut c = DepositsClient::connect(format!("http://{}", server.addr))
            .await
            .unwrap();
        for nonce in 1..=3 {
            let d = Deposit {
                account: "bob".into(),
                amount: 100 * nonce,
                nonce,
            };
            c.deposit(sign_deposit(&key, &d).unwrap()).await.unwrap();
        }
        let mut h = c
            .history(HistoryRequest {
                account: "bob".into(),
            })
            .await
            .unwrap()
            .into_inner();
        let mut balances = Vec::new();
        while let Some(r) = h.message().await.unwrap() {
            balances.push((r.nonce, r.balance));
        }
        assert_eq!(balances, [(1, 100), (2, 300), (3, 600)]);

        // Signed by someone else: the same bytes, the wrong key.
        let other = SigningKey::from_bytes(&[7; 32]);
        let d = Deposit {
            account: "bob".into(),
            amount: 1,
            nonce: 9,
        };
        let e = c
            .deposit(sign_deposit(&other, &d).unwrap())
            .await
            .unwrap_err();
        assert_eq!(e.code(), Code::Unauthenticated);
        assert!(e.message().starts_with("bad-signature:"), "{}", e.message());
        let e = c
            .deposit(sign_deposit(&key, &Deposit { amount: 0, ..d }).unwrap())
            .await
            .unwrap_err();
        assert!(e.message().starts_with("zero-amount:"), "{}", e.message());
    });
}

#[test]
fn the_zero_integration_check_is_the_same_without_rpc() {
    // Canonical bytes carried in any `bytes` field: the receiver's own check.
    let key = demo_key();
    let d = Deposit {
        account: "carol".into(),
        amount: 5,
        nonce: 1,
    };
    let env = sign_deposit(&key, &d).unwrap();
    assert_eq!(
        verify_deposit(&key.verifying_key(), &env.body, &env.signature).unwrap(),
        d
    );
    let mut flipped = env.body.clone();
    *flipped.last_mut().unwrap() ^= 2; // nonce 1 becomes 3: still canonical
    let e = verify_deposit(&key.verifying_key(), &flipped, &env.signature).unwrap_err();
    assert_eq!(e.code(), Code::Unauthenticated);
}
