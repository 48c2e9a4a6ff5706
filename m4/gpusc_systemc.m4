# GPUSC_CHECK_SYSTEMC
# -------------------
# Find the Accellera SystemC kernel. Order:
#   1. --with-systemc=DIR, when given (an explicit option wins);
#   2. pkg-config `systemc` (Debian's libsystemc-dev installs systemc.pc);
#   3. $SYSTEMC_HOME, when set;
#   4. the compiler's default paths.
# Why the option comes before pkg-config: --with-systemc=DIR is
# given on purpose for one configure run, typically to build against a SystemC of one's own (another
# version, a debug or sanitizer build) on a machine that also has libsystemc-dev. With pkg-config
# first, the option would be ignored without a word exactly there, since pkg-config finds Debian's
# systemc.pc whenever the package is installed. SYSTEMC_HOME stays after pkg-config: it is an
# environment variable often left set from Accellera's install instructions, not a choice made for
# this build, so it must not silently replace the system package.
# A prefix (from 1 or 3) must hold include/systemc; its library directory is the first of
# lib-linux64, lib64, lib that exists (Accellera's own `make install` uses lib-linux64).
# Whatever was chosen must compile and link a SystemC program; otherwise configure stops with a
# message naming the Debian package. Sets SYSTEMC_CFLAGS and SYSTEMC_LIBS. SystemC headers are
# included with -isystem so that our -Wall -Wextra -Werror does not apply to them.
AC_DEFUN([GPUSC_CHECK_SYSTEMC], [
  AC_ARG_WITH([systemc],
    [AS_HELP_STRING([--with-systemc=DIR],
      [SystemC installation prefix (DIR/include/systemc, DIR/lib*/libsystemc); default: pkg-config systemc, then SYSTEMC_HOME, then system paths])],
    [gpusc_systemc_dir=$withval], [gpusc_systemc_dir=])
  AC_ARG_VAR([SYSTEMC_HOME], [SystemC installation prefix, used when --with-systemc is not given and pkg-config does not find systemc])
  AS_CASE([$gpusc_systemc_dir],
    [no], [AC_MSG_ERROR([gpusc needs SystemC: --without-systemc is not possible])],
    [yes], [gpusc_systemc_dir=])
  SYSTEMC_CFLAGS=
  SYSTEMC_LIBS=
  gpusc_systemc_how=
  AS_IF([test -n "$gpusc_systemc_dir"],
    [gpusc_systemc_how="--with-systemc=$gpusc_systemc_dir"],
    [PKG_CHECK_MODULES([SYSTEMC_PC], [systemc >= 2.3],
       [SYSTEMC_CFLAGS=`echo "$SYSTEMC_PC_CFLAGS" | sed 's/-I/-isystem /g'`
        SYSTEMC_LIBS=$SYSTEMC_PC_LIBS
        gpusc_systemc_how="pkg-config systemc"],
       [AS_IF([test -n "$SYSTEMC_HOME"],
          [gpusc_systemc_dir=$SYSTEMC_HOME
           gpusc_systemc_how="SYSTEMC_HOME=$SYSTEMC_HOME"],
          [gpusc_systemc_how="the compiler's default paths"])])])
  AS_IF([test -n "$gpusc_systemc_dir"],
    [AS_IF([test -f "$gpusc_systemc_dir/include/systemc"], [],
       [AC_MSG_ERROR([$gpusc_systemc_how: $gpusc_systemc_dir/include/systemc does not exist.
Give the prefix of a SystemC installation, or install Debian's package with
    apt-get install libsystemc-dev])])
     gpusc_systemc_libdir=$gpusc_systemc_dir/lib
     for d in lib-linux64 lib64 lib; do
       AS_IF([test -d "$gpusc_systemc_dir/$d"], [gpusc_systemc_libdir=$gpusc_systemc_dir/$d; break])
     done
     SYSTEMC_CFLAGS="-isystem $gpusc_systemc_dir/include"
     SYSTEMC_LIBS="-L$gpusc_systemc_libdir -Wl,-rpath,$gpusc_systemc_libdir -lsystemc"])
  AS_IF([test -z "$SYSTEMC_LIBS"], [SYSTEMC_LIBS=-lsystemc])
  AC_LANG_PUSH([C++])
  gpusc_save_CXXFLAGS=$CXXFLAGS
  gpusc_save_LIBS=$LIBS
  CXXFLAGS="$CXXFLAGS -std=gnu++17 $SYSTEMC_CFLAGS"
  LIBS="$SYSTEMC_LIBS $LIBS"
  AC_MSG_CHECKING([for the SystemC kernel (from $gpusc_systemc_how)])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <systemc>
int sc_main(int, char **) { return 0; }]],
                                  [[sc_core::sc_time t(1, sc_core::SC_NS); return t.value() == 0;]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([SystemC was not found (looked at: $gpusc_systemc_how; see config.log).
On Debian or Ubuntu install it with
    apt-get install libsystemc-dev
or point configure at an installation with --with-systemc=DIR or SYSTEMC_HOME=DIR.])])
  CXXFLAGS=$gpusc_save_CXXFLAGS
  LIBS=$gpusc_save_LIBS
  AC_LANG_POP([C++])
  AC_SUBST([SYSTEMC_CFLAGS])
  AC_SUBST([SYSTEMC_LIBS])
])
