from recorder.app import create_app

app = create_app()
