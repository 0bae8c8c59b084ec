from recorder import create_app

app = create_app()
