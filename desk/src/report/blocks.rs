//! The printable building blocks every section of the report is made of: cells, tables, facts
//! and charts. A leaf module, so the sections (the report model, the recommendation, the capacity
//! twin) share them without reaching into each other.

/// A table cell: text, right-aligned when numeric.
#[derive(Clone, Debug, PartialEq)]
pub struct Cell {
    pub text: String,
    pub numeric: bool,
}

pub(crate) fn text(value: impl Into<String>) -> Cell {
    Cell {
        text: value.into(),
        numeric: false,
    }
}

pub(crate) fn num(value: impl Into<String>) -> Cell {
    Cell {
        text: value.into(),
        numeric: true,
    }
}

/// A table with a caption.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Table {
    pub caption: String,
    pub headers: Vec<Cell>,
    pub rows: Vec<Vec<Cell>>,
}

/// A chart: a title and an inline SVG.
#[derive(Clone, Debug, PartialEq)]
pub struct ReportChart {
    pub title: String,
    pub svg: String,
}

/// A labelled fact with its definition.
#[derive(Clone, Debug, PartialEq)]
pub struct Fact {
    pub label: String,
    pub value: String,
    pub note: String,
}
