"""`rules serve`: play any game in a web browser (issue 18). Starlette on uvicorn, Jinja2 pages, a websocket per
page, games stored decision by decision in SQLite. Nothing here knows a particular game: every page is drawn
from the table model through the reader's view, and a board from the layout its content declares."""
