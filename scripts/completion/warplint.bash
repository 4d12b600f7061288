# bash completion for warplint. The options and rule ids come from the
# installed program itself (--help, --list-rules), so they never go stale.
_warplint() {
  local cur prev
  cur=${COMP_WORDS[COMP_CWORD]}
  prev=${COMP_WORDS[COMP_CWORD - 1]}
  local i
  for ((i = 1; i < COMP_CWORD; i++)); do
    [[ ${COMP_WORDS[i]} == -- ]] && return 0 # clang arguments
  done
  case $prev in
    --format) COMPREPLY=($(compgen -W "text json sarif github gitlab junit" -- "$cur")); return ;;
    --color | --colour) COMPREPLY=($(compgen -W "auto always never" -- "$cur")); return ;;
    --fail-on) COMPREPLY=($(compgen -W "note warning error" -- "$cur")); return ;;
    --explain | --enable | --disable)
      COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" --list-rules --format=json 2>/dev/null |
        sed -n 's/^ *"id": "\([^"]*\)".*/\1/p')" -- "$cur"))
      return ;;
    -p | --compile-commands | --cuda-path | -I)
      COMPREPLY=($(compgen -d -- "$cur")); return ;;
    -o | --output | --config | --baseline | --write-baseline | --export-fixes | --stdin-filename)
      COMPREPLY=($(compgen -f -- "$cur")); return ;;
    -j | --jobs | --cuda-arch | --arch | --extensions | -D | -U) return ;;
  esac
  if [[ $cur == -* ]]; then
    COMPREPLY=($(compgen -W "$("${COMP_WORDS[0]}" --help 2>/dev/null |
      grep -oE -- '(^|[ ,])--?[a-zA-Z][a-z-]*' | tr -d ' ,' | sort -u)" -- "$cur"))
    return
  fi
  COMPREPLY=($(compgen -f -- "$cur"))
}
complete -o filenames -o bashdefault -F _warplint warplint
