//! kubectl's table layout: Go's text/tabwriter with min width 6 and padding 3
//! (`k8s.io/cli-runtime/pkg/printers/tabwriter.go`); the last column is not padded.

/// kubectl's tabwriter: a column's least width, and the spaces after its widest cell.
const MIN_WIDTH: usize = 6;
const PADDING: usize = 3;

/// Lay out rows (the first one is the header) as kubectl prints them.
pub fn render(rows: &[Vec<String>]) -> String {
    let cols = rows.iter().map(|r| r.len()).max().unwrap_or(0);
    let mut widths = vec![0usize; cols];
    for r in rows {
        for (i, cell) in r.iter().enumerate() {
            widths[i] = widths[i].max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for r in rows {
        let mut line = String::new();
        for (i, cell) in r.iter().enumerate() {
            line.push_str(cell);
            if i + 1 < r.len() {
                let w = (widths[i] + PADDING).max(MIN_WIDTH);
                for _ in cell.chars().count()..w {
                    line.push(' ');
                }
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// The tabwriter of `kubectl get --watch` (cli-runtime's, with `RememberWidths`): it is
/// flushed after every event, and a column stays as wide as the widest cell it has
/// held in any flush, so a row printed alone lines up with the rows before it, and
/// one wider cell widens every row after it. Cells are padded as [`render`] pads
/// them; the last cell of a row is not padded.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RememberedWidths(Vec<usize>);

impl RememberedWidths {
    /// Lay out the rows of one flush.
    pub fn layout(&mut self, rows: &[Vec<String>]) -> String {
        for r in rows {
            // Only a cell a tab ends (not a row's last) sets its column's width.
            for (i, cell) in r.iter().enumerate().take(r.len().saturating_sub(1)) {
                if self.0.len() <= i {
                    self.0.push(MIN_WIDTH);
                }
                self.0[i] = self.0[i].max(cell.chars().count() + PADDING);
            }
        }
        let mut out = String::new();
        for r in rows {
            for (i, cell) in r.iter().enumerate() {
                out.push_str(cell);
                if i + 1 < r.len() {
                    for _ in cell.chars().count()..self.0[i] {
                        out.push(' ');
                    }
                }
            }
            out.push('\n');
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_are_padded_by_three_with_a_minimum_of_six() {
        let rows = vec![
            vec!["NAME".to_string(), "READY".into(), "AGE".into()],
            vec!["web-1".to_string(), "1/1".into(), "5s".into()],
        ];
        assert_eq!(render(&rows), "NAME    READY   AGE\nweb-1   1/1     5s\n");
    }

    #[test]
    fn a_watch_remembers_each_column_s_widest_cell_across_flushes() {
        let row = |a: &str, b: &str, c: &str| vec![a.to_string(), b.to_string(), c.to_string()];
        let mut w = RememberedWidths::default();
        let first = w.layout(&[row("NAME", "STATUS", "AGE"), row("web-1", "Pending", "1s")]);
        assert_eq!(first, "NAME    STATUS    AGE\nweb-1   Pending   1s\n");
        assert_eq!(
            w.layout(&[row("web-1", "ContainerCreating", "2s")]),
            "web-1   ContainerCreating   2s\n"
        );
        // Narrower cells keep the width the column grew to.
        assert_eq!(
            w.layout(&[row("web-1", "Running", "3s")]),
            "web-1   Running             3s\n"
        );
    }
}
