//! Pages of a list that grows without bound (a pilot's evidence files).
//!
//! Why a type: a page number comes from the address, so it may be 0, past the end or absent;
//! every list clamps it the same way, asks the store for one slice, and says which rows it
//! shows ("Files 51–100 of 154") so the page stays bounded in size whatever the evidence.

use serde::{Deserialize, Serialize};

/// One page of a list of `total` rows, `per_page` a page, numbered from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ListPage {
    pub number: u32,
    pub per_page: u32,
    pub total: u64,
}

impl Default for ListPage {
    fn default() -> Self {
        ListPage {
            number: 1,
            per_page: 50,
            total: 0,
        }
    }
}

impl ListPage {
    /// The page `asked` for (absent or 0: the first; past the end: the last).
    pub fn of(asked: Option<u32>, per_page: u32, total: u64) -> ListPage {
        let per_page = per_page.max(1);
        let mut page = ListPage {
            number: 1,
            per_page,
            total,
        };
        page.number = asked.unwrap_or(1).clamp(1, page.last());
        page
    }

    /// The number of the last page (1 for an empty list).
    pub fn last(&self) -> u32 {
        let pages = self.total.div_ceil(u64::from(self.per_page.max(1))).max(1);
        u32::try_from(pages).unwrap_or(u32::MAX)
    }

    /// How many rows come before this page.
    pub fn offset(&self) -> u64 {
        u64::from(self.number - 1) * u64::from(self.per_page)
    }

    /// The first and last row shown, counted from 1 (`(0, 0)` for an empty list).
    pub fn rows(&self) -> (u64, u64) {
        if self.total == 0 {
            return (0, 0);
        }
        let first = self.offset() + 1;
        (
            first,
            (self.offset() + u64::from(self.per_page)).min(self.total),
        )
    }

    /// Whether the list needs more than one page.
    pub fn is_split(&self) -> bool {
        self.last() > 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_clamp_and_name_their_rows() {
        let page = ListPage::of(Some(2), 50, 54);
        assert_eq!((page.number, page.last(), page.offset()), (2, 2, 50));
        assert_eq!(page.rows(), (51, 54));
        assert!(page.is_split());
        assert_eq!(ListPage::of(Some(0), 50, 54).number, 1);
        assert_eq!(ListPage::of(Some(9), 50, 54).number, 2);
        assert_eq!(ListPage::of(None, 50, 100).rows(), (1, 50));
        let empty = ListPage::of(Some(3), 50, 0);
        assert_eq!((empty.number, empty.last(), empty.rows()), (1, 1, (0, 0)));
        assert!(!empty.is_split());
        assert!(!ListPage::of(None, 50, 50).is_split());
    }
}
