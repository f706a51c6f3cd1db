from django.http import HttpResponse


def contest_list(request):
    return HttpResponse("")
