from cardref.ui.page_tournament import render

render()
