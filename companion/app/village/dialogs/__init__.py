"""The dialogs the table opens: a pending choice (a death, Karla's cube, the seat
compensation), a draw entered by hand, the well."""
