//! The quality page and the evaluation-set editor in German (#37): their fixed words, the
//! precision decision's sentence and the figures read in German for a German reader, and the
//! English page stays as it was.

use crate::helpers::spawn_app;
use crate::languages::english_left;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_german_viewer_reads_the_quality_page_and_the_evaluation_set_in_german() {
    let app = spawn_app().await;
    let admin = app.admin().await;

    // English first: the page as it always was.
    let html = app.page(&admin, "/pilots/1/quality").await;
    assert!(html.contains("<html lang=\"en\""));
    assert!(html.contains(">Answer quality<") && html.contains(">Precision decision<"));

    app.choose_language(&admin, "de").await;

    let html = app.page(&admin, "/pilots/1/quality").await;
    assert!(html.contains("<html lang=\"de\""));
    for german in [
        ">Antwortqualität<",
        ">Entscheidung zur Präzision<",
        ">Evaluationsläufe<",
        "Kandidaten für die Dimensionierungsempfehlung",
        "Gewichte / KV-Cache",
        "Beantwortete Fragen",
        "Genauigkeit (%)",
        "Trefferquote der Suche@k (%)",
        "Falsche Antworten: Suche oder Modell",
        "Evaluationsdatensatz ansehen und bearbeiten",
        "Qualitäts-Zielwerte",
        "95-%-Intervall",
        ">Lauf<",
        ">Modell<",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German quality page"
        );
    }
    let english = [
        "Answer quality",
        ">Precision decision<",
        ">Evaluation runs<",
        "Candidates for the sizing recommendation",
        "Weights / KV cache",
        "Questions answered",
        "Accuracy (%)",
        "Retrieval hit rate@k",
        "Wrong answers: search vs model",
        "View and edit the evaluation set",
        "Upload a set or runs",
        ">Quality marks<",
        "95 % CI",
        ">Run<",
        ">Model<",
        ">Verdict<",
        ">Pass<",
        ">Fail<",
        "with the passage retrieved",
        "Rule: each run is graded",
    ];
    assert_eq!(
        english_left(&html, &english),
        Vec::<String>::new(),
        "English left on the German quality page"
    );

    // The evaluation set, version by version.
    let html = app.page(&admin, "/pilots/1/quality/set").await;
    for german in [
        "Evaluationsdatensatz",
        ">Qualität<",
        ">Zeile<",
        ">Frage-ID<",
        ">Frage<",
        ">Anerkannte Antwort<",
        "Anerkannte Passagen-IDs",
        "begonnen von",
        "Fragen",
    ] {
        assert!(
            html.contains(german),
            "`{german}` missing from the German evaluation-set page"
        );
    }
    let english = [
        ">Evaluation set<",
        ">Quality<",
        ">Row<",
        ">Item id<",
        ">Question<",
        ">Accepted answer<",
        "Accepted passage ids",
        "started by",
        "last saved",
        " questions<",
        "Loading the evaluation set",
        ">Approved<",
        ">Draft<",
    ];
    assert_eq!(
        english_left(&html, &english),
        Vec::<String>::new(),
        "English left on the German evaluation-set page"
    );
}
