//! The sizing what-if in German (#37): its headings, form labels, options, hints, figures,
//! table heads, notes and titles speak German to a German reader, a linked pilot's query
//! included; the English page is unchanged. The engine's arithmetic (steps, units, warnings,
//! the recommendation's rows) is worded in German too, with German number formats.

use crate::helpers::spawn_app;
use crate::languages::{english_left, german_missing};

/// English words of the sizing page: none may show on it in German.
const ENGLISH_OF_THE_PAGE: &[&str] = &[
    "Sizing what-if",
    "Memory per card, KV cache, sessions that fit",
    "Loading the catalog",
    ">Model<",
    ">Weights<",
    ">KV cache<",
    ">Copies<",
    "Context per session (tokens)",
    "Prompt + answer of one request",
    ">Memory model<",
    "Planning convention",
    "vLLM prediction",
    "Planning: the guide's convention",
    "vLLM version (optional)",
    "Per-stream target",
    ">Recompute<",
    "aria-label=\"What-if\"",
    "tensor parallel: one copy split across cards",
    "pipeline stages of one copy",
    "independent copies, each with its own weights",
    ">Fits<",
    "Does not fit",
    "card(s)",
    ">Whole sessions<",
    "all copies (floor)",
    "tokens per copy",
    ">Max concurrency<",
    "per copy, at full context",
    ">Decode ceiling<",
    "one stream (TPOT",
    "The ceiling is above the target",
    "The ceiling is below the target",
    ">The arithmetic<",
    ">Step<",
    ">Value<",
    ">Unit<",
    ">How<",
    "Every GPU in the catalog",
    "Memory, GiB",
    "Bandwidth, GB/s",
    ">Sessions<",
    "KV cache, tokens",
    "Decode ceiling, tok/s",
    ">fits<",
    ">no<",
    "as the driver (nvidia-smi) reports it",
    "Recommendation for a demand",
    "Every configuration of every catalog GPU",
    "Only the precisions that passed",
    "Peak concurrent sessions",
    ">Card limit<",
    "Also size formats a card only emulates",
    "the card runs them through emulation",
    "tokens per session; per-stream target",
    ">Rank<",
    ">Topology<",
    ">Cards<",
    "Headroom ×",
    "sessions that fit ÷ sessions needed",
    "an upper bound no system reaches",
    ">Arithmetic<",
    ">show<",
    "other configurations do not fit",
    "Add a model from its config.json",
    "Paste the model's Hugging Face",
    "from the config when empty",
    "from the name when empty",
    ">Add model<",
    "is not in the catalog",
    "choose a model from the list",
    "(edited here)",
    "(added here)",
    "\nWeights ",
    "\nKV cache ",
    "\nFree ",
    "Single-stream decode ceiling",
    "\ntarget ",
];

/// The engine's English wording of the arithmetic, warnings and recommendation rows: none may
/// show on the German page.
const ENGLISH_OF_THE_ARITHMETIC: &[&str] = &[
    "Memory the driver reports",
    "Budget per card",
    "planning overhead",
    "0.9 × ",
    "Weights (checkpoint)",
    "linear layers at",
    "embeddings, lm_head and norms at",
    "KV pool of one copy",
    "KV cache per token",
    " layers × ",
    ">One session<",
    "tokens × KV per token",
    "Sessions per copy",
    "floor(",
    "Bytes read per decode step",
    "input-embedding table",
    "Decode ceiling, one stream",
    "1,597 GB/s ÷",
    "an upper bound, confirm with a load test",
    "Prefill rate (estimate)",
    "efficiency ÷",
    "B active parameters",
    "prompt tokens/s",
    ">sessions<",
    "Sessions against the peak",
    "per copy ×",
    "for a peak of",
    "Decode target per stream",
    "not established: ceiling only, an upper bound",
    "tok/s against",
    ">Load test<",
    "ceilings are upper bounds: confirm",
    "concurrent sessions of",
    "before buying",
    "tok/s (upper bound)",
    "as entered for",
    "Ceilings are upper bounds no system reaches",
    "Emulated format",
    "has no native",
];

/// The same in German, on the demo's defaults (Llama 3.3 70B in FP8 on one RTX PRO 6000 Server
/// Edition, planning convention).
const GERMAN_OF_THE_ARITHMETIC: &[&str] = &[
    ">Vom Treiber gemeldeter Speicher<",
    "nvidia-smi 97.887 MiB ÷ 1024 = 95,59 → 95,6 GiB",
    ">Budget je Karte<",
    "0,9 × 95,60 GiB − 3,0 GiB Planungsaufschlag",
    ">Gewichte (Checkpoint)<",
    "FP8 von Llama 3.3 70B Instruct: lineare Schichten mit 1,0000 B/Parameter, Embeddings, lm_head und Normen mit 2 B = 67,67 → 67,7 GiB",
    ">KV-Pool einer Kopie<",
    "83,04 GiB − 67,7 GiB",
    ">KV-Cache je Token<",
    "2 × 80 Schichten × 8 KV-Heads × 128 head_dim × 1 B = 163.840 B",
    ">Eine Sitzung<",
    "8.192 Token × KV je Token",
    ">Sitzungen je Kopie<",
    "abrunden(15,34 GiB ÷ 1,2500 GiB) = abrunden(12,27)",
    ">Sitzungen<",
    ">Je Decode-Schritt gelesene Bytes<",
    "Checkpoint in FP8 abzüglich der Eingabe-Embedding-Tabelle von 2,10 GB",
    ">Decode-Obergrenze, ein Stream<",
    "1.597 GB/s ÷ 70,6 GB; eine obere Schranke, mit einem Lasttest bestätigen",
    ">Prefill-Rate (Schätzung)<",
    "× 0,5 Effizienz ÷ (2 × 70,55 Mrd. aktive Parameter)",
    ">Prompt-Token/s<",
    "Obergrenzen sind obere Schranken, die kein System erreicht; der letzte Schritt ist immer ein Lasttest auf dem Kandidaten.",
    // The recommendation's rows.
    ">Sitzungen gegen die Spitzenlast<",
    "je Kopie × 1 Kopie = ",
    "für eine Spitze von 30",
    ">Decode-Zielwert je Stream<",
    "gegen ≥ 25,0 tok/s (TPOT ≤ 40 ms); nicht belegt: nur Obergrenze, eine obere Schranke, die kein Lasttest kalibriert hat",
    ">Lasttest<",
    "Obergrenzen sind obere Schranken: 30 gleichzeitige Sitzungen mit je 8.192 Token auf 1 × ",
    "vor dem Kauf bestätigen",
];

/// The vLLM memory model's steps and warnings in English: none may show in German.
const ENGLISH_OF_VLLM: &[&str] = &[
    "Memory vLLM may use per card",
    ">CUDA total ",
    "default of vLLM",
    "Weights vLLM loads (whole model)",
    "Weights on the bottleneck card",
    "the whole model",
    "Activation + non-torch memory",
    "peak activation",
    ">CUDA graphs<",
    "subtracted from the KV budget",
    "Available KV cache memory",
    "KV per token and layer on one card",
    ">GPU blocks<",
    "layers per group",
    ">Maximum concurrency<",
    "blocks per",
    "GPU KV cache size",
    "as vLLM ≥ 0.21 logs it",
    "vLLM version not given",
    ">blocks<",
    ">tokens<",
];

/// The demo's defaults under the vLLM memory model.
const VLLM_QUERY: &str = "/sizing?model=llama-3.3-70b&gpu=rtx-pro-6000-server&memory_model=vllm";

/// The pilot page's link: the demo pilot's model and cards, with the precisions its evaluation
/// set passed.
const PILOT_QUERY: &str =
    "/sizing?model=qwen2.5-7b&gpu=v100-sxm2-16gb&tp=4&weights=fp16&kv=16bit&precisions=bf16,fp16";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_reader_reads_the_sizing_page_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;

    // English first: the page as it always was.
    let english = app.page(&admin, "/sizing").await;
    assert!(english.contains("<html lang=\"en\""));
    for heading in [
        "Sizing what-if",
        ">The arithmetic<",
        "Recommendation for a demand",
        ">Whole sessions<",
        "\nWeights 67.7 GiB\n",
        "\ntarget 25.0 tok/s (TPOT 40 ms)\n",
        // The engine's arithmetic, as it always read.
        ">Memory the driver reports<",
        "nvidia-smi 97,887 MiB ÷ 1024 = 95.59 → 95.6 GiB",
        "0.9 × 95.60 GiB − 3.0 GiB planning overhead",
        ">KV cache per token<",
        "floor(15.34 GiB ÷ 1.2500 GiB) = floor(12.27)",
        "1,597 GB/s ÷ 70.6 GB; an upper bound, confirm with a load test",
        ">Load test<",
        "ceilings are upper bounds: confirm 30 concurrent sessions of 8,192 tokens on 1 × ",
        "Ceilings are upper bounds no system reaches; the last step is always a load test on the candidate.",
    ] {
        assert!(english.contains(heading), "`{heading}` missing in English");
    }

    // The vLLM model's English steps, each of which the German page must word otherwise.
    let english_vllm = app.page(&admin, VLLM_QUERY).await;
    for step in ENGLISH_OF_VLLM {
        assert!(
            english_vllm.contains(step),
            "`{step}` missing in English (vLLM)"
        );
    }

    app.choose_language(&admin, "de").await;

    let html = app.page(&admin, "/sizing").await;
    assert!(html.contains("<html lang=\"de\""));
    for german in [
        "Dimensionierung: Was-wäre-wenn",
        "Speicher je Karte, KV-Cache, passende Sitzungen",
        "aria-label=\"Was-wäre-wenn\"",
        ">Modell<",
        ">Gewichte<",
        ">KV-Cache<",
        ">Kopien<",
        "Kontext je Sitzung (Token)",
        "Prompt + Antwort einer Anfrage",
        ">Speichermodell<",
        "Planungskonvention (0,9 × Treiberspeicher − 3 GiB je Karte)",
        "Planung: die Konvention des Leitfadens",
        "vLLM-Version (optional)",
        "Ziel je Stream: TPOT ≤ (ms)",
        ">Neu berechnen<",
        "Tensor-Parallel: eine Kopie auf mehrere Karten verteilt",
        ">Passt<",
        "Karte(n)",
        ">Ganze Sitzungen<",
        "alle Kopien (abgerundet)",
        "Token je Kopie",
        ">Max. Parallelität<",
        ">Decode-Obergrenze<",
        "ein Stream (TPOT",
        "Die Obergrenze liegt",
        ">Die Rechnung<",
        ">Schritt<",
        ">Wert<",
        ">Einheit<",
        "Jede GPU im Katalog, gleiches Modell, gleiche Präzision und Topologie",
        "Speicher, GiB",
        "Bandbreite, GB/s",
        ">Sitzungen<",
        "KV-Cache, Token",
        "Decode-Obergrenze, tok/s",
        ">passt<",
        "Empfehlung für einen Bedarf",
        "Jede Konfiguration jeder Katalog-GPU",
        "Gleichzeitige Sitzungen zur Spitze",
        ">Kartenlimit<",
        "Auch Formate dimensionieren, die eine Karte nur emuliert",
        "Token je Sitzung; Ziel je Stream",
        ">Rang<",
        ">Topologie<",
        ">Karten<",
        "Reserve ×",
        ">Rechnung<",
        ">anzeigen<",
        "weitere Konfigurationen passen nicht",
        "Ein Modell aus seiner config.json hinzufügen",
        "aus der config.json, wenn leer",
        ">Modell hinzufügen<",
        "\nGewichte 67,7 GiB\n",
        "\nKV-Cache 15,3 GiB\n",
        "Decode-Obergrenze eines Streams, Token/s (obere Schranke)",
        "\nZiel 25,0 tok/s (TPOT 40 ms)\n",
        "\n22,6\n",
        "\n113,3\n",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German sizing page"
        );
    }
    assert_eq!(
        english_left(&html, ENGLISH_OF_THE_PAGE),
        Vec::<String>::new(),
        "English left on the sizing page"
    );
    assert_eq!(
        german_missing(&html, GERMAN_OF_THE_ARITHMETIC),
        Vec::<&str>::new(),
        "the arithmetic in German"
    );
    assert_eq!(
        english_left(&html, ENGLISH_OF_THE_ARITHMETIC),
        Vec::<String>::new(),
        "English arithmetic left on the sizing page"
    );

    // A pilot's link: its precisions, its cards, a model the catalog lacks.
    let pilot = app.page(&admin, PILOT_QUERY).await;
    assert!(
        pilot.contains(
            "Nur die Präzisionen, die den Evaluationsdatensatz des Pilots bestanden haben:"
        ),
        "the pilot's precisions in German"
    );
    assert!(pilot.contains("Kopien") && pilot.contains(">Passt<"));
    assert_eq!(
        english_left(&pilot, ENGLISH_OF_THE_PAGE),
        Vec::<String>::new(),
        "English left"
    );
    assert_eq!(
        german_missing(
            &pilot,
            &[
                ">Vom Treiber gemeldeter Speicher<",
                ">KV-Pool einer Kopie<",
                "4 Karten × ",
                "(Budgets summiert, der Checkpoint einmal abgezogen)",
                ">Decode-Obergrenze, ein Stream<",
                "TP 4 × 900 GB/s ÷ ",
                ">Lasttest<",
            ],
        ),
        Vec::<&str>::new(),
        "the pilot's arithmetic in German"
    );
    assert_eq!(
        english_left(&pilot, ENGLISH_OF_THE_ARITHMETIC),
        Vec::<String>::new(),
        "English arithmetic left on the pilot's sizing"
    );

    // The vLLM memory model's steps and warnings.
    let vllm = app.page(&admin, VLLM_QUERY).await;
    assert_eq!(
        german_missing(
            &vllm,
            &[
                ">Speicher, den vLLM je Karte nutzen darf<",
                "CUDA gesamt ",
                "(Standard von vLLM unbekannte Version)",
                ">Gewichte, die vLLM lädt (ganzes Modell)<",
                ">Gewichte auf der Engpass-Karte<",
                ">Aktivierungs- + Nicht-Torch-Speicher<",
                ">CUDA-Graphen<",
                ">Verfügbarer KV-Cache-Speicher<",
                ">KV je Token und Schicht auf einer Karte<",
                ">GPU-Blöcke<",
                ">Maximale Parallelität<",
                ">GPU-KV-Cache-Größe<",
                "vLLM-Version nicht angegeben",
            ],
        ),
        Vec::<&str>::new(),
        "the vLLM model's arithmetic in German"
    );
    assert_eq!(
        english_left(&vllm, ENGLISH_OF_VLLM),
        Vec::<String>::new(),
        "English vLLM arithmetic left"
    );

    let unknown = app
        .page(
            &admin,
            "/sizing?model=acme%2Fsecret-13b&gpu=Acme%20NPU%209&weights=fp16&kv=16bit",
        )
        .await;
    assert!(unknown.contains("Modell „acme/secret-13b“ ist nicht im Katalog"));
    assert!(unknown.contains("GPU „Acme NPU 9“ ist nicht im Katalog"));
    assert!(unknown.contains("„acme/secret-13b“: nicht im Katalog"));
    assert_eq!(
        english_left(&unknown, ENGLISH_OF_THE_PAGE),
        Vec::<String>::new(),
        "English left"
    );
}
