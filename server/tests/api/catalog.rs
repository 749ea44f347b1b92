//! The sizing catalog on an installation: prices, edited and added GPUs, pasted models.

use crate::helpers::spawn_app;
use reqwest::StatusCode;
use serde_json::Value;

/// A config.json in the Llama layout, written for this test (8 layers, GQA 32/8, head 128).
const CONFIG: &str = r#"{
  "architectures": ["LlamaForCausalLM"],
  "model_type": "llama",
  "_name_or_path": "acme/tiny-llama",
  "num_hidden_layers": 8,
  "num_attention_heads": 32,
  "num_key_value_heads": 8,
  "hidden_size": 4096,
  "intermediate_size": 14336,
  "vocab_size": 32000,
  "max_position_embeddings": 16384,
  "tie_word_embeddings": false,
  "torch_dtype": "bfloat16"
}"#;

fn gpu<'a>(catalog: &'a Value, id: &str) -> Option<&'a Value> {
    catalog["gpus"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["spec"]["id"] == id)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prices_edits_and_added_gpus_show_in_the_catalog_and_reset() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    app.call_ok(
        &admin,
        "set_gpu_price",
        &[("id", "h200-nvl"), ("unit_price", "32000")],
    )
    .await;
    let bad = app
        .call(
            &admin,
            "set_gpu_price",
            &[("id", "h200-nvl"), ("unit_price", "cheap")],
        )
        .await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let missing = app
        .call(
            &admin,
            "set_gpu_price",
            &[("id", "tpu-v9"), ("unit_price", "1")],
        )
        .await;
    assert_eq!(missing.status(), StatusCode::NOT_FOUND);

    let added = app
        .call_ok(
            &admin,
            "save_gpu",
            &[
                ("id", ""),
                ("name", "NVIDIA H20"),
                ("memory_driver_gib", "95.6"),
                ("memory_cuda_gib", ""),
                ("bandwidth_gb_s", "4000"),
                ("bf16_dense_tflops", "148"),
                ("fp8", "native"),
                ("fp4", "none"),
                ("unit_price", "12000"),
            ],
        )
        .await;
    assert_eq!(added, "nvidia-h20");
    app.call_ok(
        &admin,
        "save_gpu",
        &[
            ("id", "l40s"),
            ("name", "NVIDIA L40S (our firmware)"),
            ("memory_driver_gib", "45.0"),
            ("memory_cuda_gib", "44.5"),
            ("bandwidth_gb_s", "800"),
            ("bf16_dense_tflops", "362"),
            ("fp8", "native"),
            ("fp4", "none"),
            ("unit_price", ""),
        ],
    )
    .await;
    let zero = app
        .call(
            &admin,
            "save_gpu",
            &[
                ("id", "broken"),
                ("name", "Broken"),
                ("memory_driver_gib", "0"),
                ("memory_cuda_gib", ""),
                ("bandwidth_gb_s", "100"),
                ("bf16_dense_tflops", ""),
                ("fp8", "native"),
                ("fp4", "none"),
                ("unit_price", ""),
            ],
        )
        .await;
    assert_eq!(zero.status(), StatusCode::UNPROCESSABLE_ENTITY);

    let catalog = app.call_ok(&admin, "sizing_catalog", &[]).await;
    assert_eq!(gpu(&catalog, "h200-nvl").unwrap()["unit_price"], 32000.0);
    assert_eq!(gpu(&catalog, "h200-nvl").unwrap()["origin"], "reviewed");
    let h20 = gpu(&catalog, "nvidia-h20").unwrap();
    assert_eq!(h20["origin"], "added");
    assert_eq!(h20["spec"]["memory_cuda_estimated"], true);
    assert_eq!(h20["unit_price"], 12000.0);
    let l40s = gpu(&catalog, "l40s").unwrap();
    assert_eq!(l40s["origin"], "edited");
    assert_eq!(l40s["spec"]["bandwidth_gb_s"], 800.0);

    app.call_ok(&admin, "reset_gpu", &[("id", "l40s")]).await;
    app.call_ok(&admin, "reset_gpu", &[("id", "nvidia-h20")])
        .await;
    let catalog = app.call_ok(&admin, "sizing_catalog", &[]).await;
    assert_eq!(gpu(&catalog, "l40s").unwrap()["origin"], "reviewed");
    assert_eq!(
        gpu(&catalog, "l40s").unwrap()["spec"]["bandwidth_gb_s"],
        864.0
    );
    assert!(gpu(&catalog, "nvidia-h20").is_none());
    let again = app.call(&admin, "reset_gpu", &[("id", "nvidia-h20")]).await;
    assert_eq!(again.status(), StatusCode::NOT_FOUND);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn assessors_add_a_model_from_its_config_json_and_sales_engineers_may_not() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let staff = app.staff_organisation().await;
    let sales = app.user(&admin, "sam@vendor.io", "sales", staff).await;
    let assessor = app.user(&admin, "ada@vendor.io", "assessor", staff).await;
    let refused = app
        .call(
            &sales,
            "add_model",
            &[("id", ""), ("name", ""), ("config_json", CONFIG)],
        )
        .await;
    assert_eq!(refused.status(), StatusCode::FORBIDDEN);
    let id = app
        .call_ok(
            &assessor,
            "add_model",
            &[("id", ""), ("name", ""), ("config_json", CONFIG)],
        )
        .await;
    assert_eq!(id, "acme-tiny-llama");
    let catalog = app.call_ok(&sales, "sizing_catalog", &[]).await;
    let model = catalog["models"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["spec"]["id"] == "acme-tiny-llama")
        .expect("pasted model listed");
    assert_eq!(model["origin"], "added");
    assert_eq!(model["spec"]["layers"], 8);
    assert_eq!(model["spec"]["kv_heads"], 8);

    let duplicate = app
        .call(
            &assessor,
            "add_model",
            &[("id", ""), ("name", ""), ("config_json", CONFIG)],
        )
        .await;
    assert_eq!(duplicate.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let shadow = app
        .call(
            &assessor,
            "add_model",
            &[
                ("id", "llama-3.3-70b"),
                ("name", ""),
                ("config_json", CONFIG),
            ],
        )
        .await;
    assert_eq!(shadow.status(), StatusCode::UNPROCESSABLE_ENTITY);
    let broken = app
        .call(
            &assessor,
            "add_model",
            &[
                ("id", "x"),
                ("name", ""),
                ("config_json", r#"{"num_hidden_layers": 8}"#),
            ],
        )
        .await;
    assert_eq!(broken.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(broken.text().await.unwrap().contains("config_json"));

    let not_admin = app
        .call(&assessor, "delete_model", &[("id", "acme-tiny-llama")])
        .await;
    assert_eq!(not_admin.status(), StatusCode::FORBIDDEN);
    app.call_ok(&admin, "delete_model", &[("id", "acme-tiny-llama")])
        .await;
    let catalog: Value = app.call_ok(&admin, "sizing_catalog", &[]).await;
    assert!(!catalog.to_string().contains("acme-tiny-llama"));
}

/// The price per GPU-hour (what 1M tokens cost at the predicted operating point) beside the
/// unit price: set, kept when a form leaves it out, cleared when empty, refused when not a
/// number, and, like every price, never in a customer's catalog.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prices_per_gpu_hour_are_kept_cleared_and_staff_only() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    app.call_ok(
        &admin,
        "set_gpu_price",
        &[
            ("id", "h200-nvl"),
            ("unit_price", "32000"),
            ("hour_price", "3.2"),
        ],
    )
    .await;
    let catalog = app.call_ok(&admin, "sizing_catalog", &[]).await;
    let h200 = gpu(&catalog, "h200-nvl").unwrap();
    assert_eq!(h200["unit_price"], 32000.0);
    assert_eq!(h200["hour_price"], 3.2);
    // A caller that knows only the unit price keeps the hourly one.
    app.call_ok(
        &admin,
        "set_gpu_price",
        &[("id", "h200-nvl"), ("unit_price", "31000")],
    )
    .await;
    let catalog = app.call_ok(&admin, "sizing_catalog", &[]).await;
    assert_eq!(gpu(&catalog, "h200-nvl").unwrap()["unit_price"], 31000.0);
    assert_eq!(gpu(&catalog, "h200-nvl").unwrap()["hour_price"], 3.2);
    let bad = app
        .call(
            &admin,
            "set_gpu_price",
            &[
                ("id", "h200-nvl"),
                ("unit_price", "1"),
                ("hour_price", "-1"),
            ],
        )
        .await;
    assert_eq!(bad.status(), StatusCode::UNPROCESSABLE_ENTITY);
    assert!(bad.text().await.unwrap().contains("hour_price"));
    // Editing the card's figures keeps its hourly price too.
    app.call_ok(
        &admin,
        "save_gpu",
        &[
            ("id", "h200-nvl"),
            ("name", "NVIDIA H200 NVL (ours)"),
            ("memory_driver_gib", "140.4"),
            ("memory_cuda_gib", ""),
            ("bandwidth_gb_s", "4800"),
            ("bf16_dense_tflops", "835"),
            ("fp8", "native"),
            ("fp4", "none"),
            ("unit_price", "31000"),
        ],
    )
    .await;
    let catalog = app.call_ok(&admin, "sizing_catalog", &[]).await;
    assert_eq!(gpu(&catalog, "h200-nvl").unwrap()["origin"], "edited");
    assert_eq!(gpu(&catalog, "h200-nvl").unwrap()["hour_price"], 3.2);
    // Customers see neither price.
    let acme = app.organisation(&admin, "Acme Corp").await;
    let carol = app.user(&admin, "carol@acme.io", "customer", acme).await;
    let theirs = app.call_ok(&carol, "sizing_catalog", &[]).await;
    assert!(gpu(&theirs, "h200-nvl").unwrap()["hour_price"].is_null());
    assert!(gpu(&theirs, "h200-nvl").unwrap()["unit_price"].is_null());
    // Empty clears; reset clears both.
    app.call_ok(
        &admin,
        "set_gpu_price",
        &[
            ("id", "h200-nvl"),
            ("unit_price", "31000"),
            ("hour_price", ""),
        ],
    )
    .await;
    let catalog = app.call_ok(&admin, "sizing_catalog", &[]).await;
    assert!(gpu(&catalog, "h200-nvl").unwrap()["hour_price"].is_null());
    app.call_ok(
        &admin,
        "set_gpu_price",
        &[("id", "h200-nvl"), ("unit_price", "1"), ("hour_price", "2")],
    )
    .await;
    app.call_ok(&admin, "reset_gpu", &[("id", "h200-nvl")])
        .await;
    let catalog = app.call_ok(&admin, "sizing_catalog", &[]).await;
    assert!(gpu(&catalog, "h200-nvl").unwrap()["hour_price"].is_null());
    assert!(gpu(&catalog, "h200-nvl").unwrap()["unit_price"].is_null());
}

/// Prices set and cleared in any order, many times over the same pool, are stored as given.
/// sqlx 0.8.6's `Any` driver sends a missing `f64` as a 4-byte float NULL (its NULL float kinds
/// are swapped, sqlx issue #4284), and PostgreSQL keeps the parameter types a statement was first
/// prepared with on a connection: a cleared price followed by a set one on that connection was
/// refused ("incorrect binary data format in bind parameter 4"), now and then, as a 500.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn prices_set_and_cleared_in_any_order_are_stored_as_given() {
    use desk::store::catalog::GpuPrices;
    let app = spawn_app().await;
    // A fixed pseudo-random pattern of set and cleared prices, so each of the pool's
    // connections sees a cleared price before a set one whichever way the pool hands them out.
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    for step in 0..64 {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let price = |bit: u32| (state >> bit) & 1 == 1;
        let prices = GpuPrices {
            unit_price: price(33).then_some(30_000.0 + step as f64),
            hour_price: price(47).then_some(2.5 + step as f64 / 8.0),
        };
        app.store
            .upsert_catalog_gpu("h200-nvl", None, prices, 1)
            .await
            .unwrap_or_else(|error| panic!("step {step}, {prices:?}: {error}"));
        let row = app
            .store
            .catalog_gpu_rows()
            .await
            .unwrap()
            .into_iter()
            .find(|row| row.id == "h200-nvl")
            .unwrap();
        assert_eq!(
            (row.unit_price, row.hour_price),
            (prices.unit_price, prices.hour_price),
            "step {step}"
        );
    }
}

/// The currency of the prices: set by admins (any case, stored upper case), refused with the
/// field named when it is not three letters, cleared when empty; the catalog carries it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_prices_currency_is_set_checked_and_cleared_by_admins() {
    let app = spawn_app().await;
    let admin = app.admin().await;
    let catalog = app.call_ok(&admin, "sizing_catalog", &[]).await;
    assert!(
        catalog["currency"].is_null(),
        "none until an admin sets one"
    );
    app.call_ok(&admin, "set_price_currency", &[("currency", " chf ")])
        .await;
    let catalog = app.call_ok(&admin, "sizing_catalog", &[]).await;
    assert_eq!(catalog["currency"], "CHF");
    for bad in ["EURO", "€", "E1R"] {
        let refused = app
            .call(&admin, "set_price_currency", &[("currency", bad)])
            .await;
        assert_eq!(refused.status(), StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
        let text = refused.text().await.unwrap();
        assert!(text.contains("currency:"), "{text}");
    }
    let catalog = app.call_ok(&admin, "sizing_catalog", &[]).await;
    assert_eq!(catalog["currency"], "CHF", "a refused code changes nothing");
    // The catalog page heads its price column with it.
    let page = app.page(&admin, "/admin/gpus").await;
    assert!(
        page.contains("Prices (CHF): per card · per GPU-hour"),
        "{page}"
    );
    assert!(page.contains("value=\"CHF\""));
    app.call_ok(&admin, "set_price_currency", &[("currency", "")])
        .await;
    let catalog = app.call_ok(&admin, "sizing_catalog", &[]).await;
    assert!(catalog["currency"].is_null());
}
