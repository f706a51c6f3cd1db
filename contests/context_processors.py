def workspace(request):
    return {}
